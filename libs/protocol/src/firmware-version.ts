import { INT32_MAX, INT32_MIN } from './json/cjson-value';
import { err, ok, type ProtocolError, type Result } from './result';

export type FirmwareVersionError = ProtocolError<'would_crash_device'> & { readonly segment: string };

/**
 * Ota::ParseVersion: std::getline on '.', then std::stoi per segment. stoi skips leading whitespace, takes an
 * optional sign and digits and ignores what follows ("3-rc1" → 3); no digits, or a value outside int, throws and
 * the uncaught exception crashes the device (xiaozhi §4.3). getline yields no trailing empty segment ("2.4." → 2,4).
 */
export function parseFirmwareVersion(version: string): Result<number[], FirmwareVersionError> {
  const segments = version.split('.');
  if (segments[segments.length - 1] === '') segments.pop();
  const numbers: number[] = [];
  for (const segment of segments) {
    const match = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(segment);
    const value = match ? Number(match[1]) : NaN;
    if (!match || value > INT32_MAX || value < INT32_MIN) {
      return err({
        kind: 'would_crash_device',
        message: `std::stoi throws on version segment ${JSON.stringify(segment)}`,
        segment,
      });
    }
    numbers.push(value);
  }
  return ok(numbers);
}

/** Ota::IsNewVersionAvailable: numeric per segment, and with equal prefixes more segments is newer. */
export function isNewerFirmware(current: string, offered: string): Result<boolean, FirmwareVersionError> {
  const a = parseFirmwareVersion(current);
  if (!a.ok) return a;
  const b = parseFirmwareVersion(offered);
  if (!b.ok) return b;
  return ok(compareSegments(b.value, a.value) > 0);
}

/** Orders two versions the way the device would (-1, 0, 1); undefined if either would crash it. */
export function compareFirmwareVersions(a: string, b: string): -1 | 0 | 1 | undefined {
  const pa = parseFirmwareVersion(a);
  const pb = parseFirmwareVersion(b);
  return pa.ok && pb.ok ? compareSegments(pa.value, pb.value) : undefined;
}

function compareSegments(a: number[], b: number[]): -1 | 0 | 1 {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i] ?? 0, b[i] ?? 0];
    if (x !== y) return x > y ? 1 : -1;
  }
  return a.length === b.length ? 0 : a.length > b.length ? 1 : -1;
}

/** The only versions the platform ever offers a device: dotted integers, each fitting an int. */
export function isSafeFirmwareVersion(version: string): boolean {
  return /^\d+(\.\d+)*$/.test(version) && version.split('.').every((s) => Number(s) <= INT32_MAX);
}
