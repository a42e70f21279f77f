import { createHash } from 'node:crypto';
import { normaliseMac, type Mac } from '@fleet/protocol';

/**
 * The MAC of the `index`-th simulated device: the prefix's octets, then the index big-endian in the rest.
 * The default prefix is locally administered (02:…), so it never collides with a real vendor's device.
 */
export function macFor(prefix: string, index: number): Mac {
  const octets = prefix === '' ? [] : prefix.split(/[:_-]/);
  const free = 6 - octets.length;
  if (free < 1 || octets.some((o) => !/^[0-9a-fA-F]{2}$/.test(o))) {
    throw new Error(`MAC prefix must be 0 to 5 hex octets: ${prefix}`);
  }
  if (!Number.isInteger(index) || index < 0 || index >= 256 ** free) {
    throw new Error(`device index ${index} does not fit ${free} octets after ${prefix}`);
  }
  const tail =
    index
      .toString(16)
      .padStart(free * 2, '0')
      .match(/../g) ?? [];
  const mac = normaliseMac([...octets, ...tail].join(':'));
  if (!mac.ok) throw new Error(mac.error.message);
  return mac.value;
}

/**
 * The device's Client-Id. The firmware makes a random UUID v4 once and keeps it in NVS; here it is derived from
 * the MAC so a simulated fleet keeps its identities across runs (a new one would look like an erased flash).
 */
export function uuidFor(mac: Mac, seed = ''): string {
  const h = createHash('sha256').update(`uuid ${seed}${mac}`).digest('hex');
  const variant = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
