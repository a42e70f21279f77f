import { z } from 'zod';
import { CLIENT_ID_LENGTH, isFirmwareClientId } from '../credentials/client-id-secret';
import { normaliseMac, type Mac } from '../mac';
import { SERIAL_NUMBER } from './activation';
import type { OtaComplaint } from './complaint';

/** xiaozhi §4.1: the check-in request headers (lower case, as Node delivers them); all optional, unknown kept. */
export const otaRequestHeadersSchema = z.looseObject({
  'device-id': z.string().optional(),
  'client-id': z.string().optional(),
  'activation-version': z.string().optional(),
  'serial-number': z.string().optional(),
  'user-agent': z.string().optional(),
  'accept-language': z.string().optional(),
  'content-type': z.string().optional(),
});

export interface OtaHeaders {
  readonly deviceId?: Mac;
  readonly clientId?: string;
  readonly activationVersion?: string;
  readonly serialNumber?: string;
  /** `BOARD_NAME/version`, e.g. bread-compact-wifi/2.4.2. */
  readonly userAgent?: { readonly raw: string; readonly boardName?: string; readonly version?: string };
  readonly acceptLanguage?: string;
  /** Headers that were sent but not used: too long, or not shaped as the firmware makes them. */
  readonly refused: readonly string[];
}

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The longest value read from each header (a Client-Id of 8,000 characters must not reach a log, a row or a
 * comparison). The firmware's own values are far shorter: a MAC, a UUID, 32 eFuse bytes, `BOARD/version`.
 */
const MAX_LENGTH: Record<string, number> = {
  'device-id': 32,
  'client-id': CLIENT_ID_LENGTH,
  'activation-version': 4,
  'serial-number': 32,
  'user-agent': 256,
  'accept-language': 64,
};

/**
 * Reads the headers leniently: what is unusable is left out and named in a complaint, never thrown. A
 * complaint never repeats the Client-Id (DESIGN §3: it is a device secret), only what was wrong with it.
 */
export function readOtaHeaders(headers: HeaderBag): { headers: OtaHeaders; complaints: OtaComplaint[] } {
  const complaints: OtaComplaint[] = [];
  const refused: string[] = [];
  const get = (name: string): string | undefined => {
    const entry = Object.entries(headers).find(([k]) => k.toLowerCase() === name);
    let value = entry?.[1];
    if (value !== undefined && typeof value !== 'string') {
      complaints.push({
        field: `header ${name}`,
        problem: `sent ${value.length} times, the first one is used`,
      });
      value = value[0];
    }
    const limit = MAX_LENGTH[name] ?? 256;
    if (value !== undefined && value.length > limit) {
      complaints.push({ field: `header ${name}`, problem: `${value.length} characters, at most ${limit}` });
      refused.push(name);
      return undefined;
    }
    return value;
  };
  const out: { -readonly [K in keyof OtaHeaders]: OtaHeaders[K] } = { refused };
  const deviceId = get('device-id');
  if (deviceId === undefined) {
    if (!refused.includes('device-id')) complaints.push({ field: 'header device-id', problem: 'missing' });
  } else {
    const mac = normaliseMac(deviceId);
    if (mac.ok) out.deviceId = mac.value;
    else complaints.push({ field: 'header device-id', problem: mac.error.message });
    if (mac.ok && mac.value !== deviceId) {
      complaints.push({ field: 'header device-id', problem: `not in the firmware's form (${mac.value})` });
    }
  }
  const clientId = get('client-id');
  if (clientId === undefined) {
    if (!refused.includes('client-id')) complaints.push({ field: 'header client-id', problem: 'missing' });
  } else if (isFirmwareClientId(clientId)) out.clientId = clientId;
  else {
    refused.push('client-id');
    complaints.push({ field: 'header client-id', problem: 'not a UUID as the firmware makes it' });
  }
  const activationVersion = get('activation-version');
  if (activationVersion === '1' || activationVersion === '2') out.activationVersion = activationVersion;
  else if (activationVersion !== undefined) {
    refused.push('activation-version');
    complaints.push({ field: 'header activation-version', problem: 'neither 1 nor 2' });
  }
  const serialNumber = get('serial-number');
  if (serialNumber !== undefined && SERIAL_NUMBER.test(serialNumber)) out.serialNumber = serialNumber;
  else if (serialNumber !== undefined) {
    refused.push('serial-number');
    complaints.push({ field: 'header serial-number', problem: 'not printable ASCII of 1 to 32 characters' });
  }
  const acceptLanguage = get('accept-language');
  if (acceptLanguage !== undefined) out.acceptLanguage = acceptLanguage;
  const ua = get('user-agent');
  if (ua !== undefined) {
    const match = /^(.+)\/([^/\s]+)$/.exec(ua);
    out.userAgent = match ? { raw: ua, boardName: match[1], version: match[2] } : { raw: ua };
    if (!match) complaints.push({ field: 'header user-agent', problem: 'not BOARD_NAME/version' });
  }
  return { headers: out, complaints };
}
