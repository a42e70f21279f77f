import { z } from 'zod';
import { normaliseMac, type Mac } from '../mac';
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
}

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads the headers leniently: what is unusable is left out and named in a complaint, never thrown. */
export function readOtaHeaders(headers: HeaderBag): { headers: OtaHeaders; complaints: OtaComplaint[] } {
  const complaints: OtaComplaint[] = [];
  const get = (name: string): string | undefined => {
    const entry = Object.entries(headers).find(([k]) => k.toLowerCase() === name);
    const value = entry?.[1];
    if (typeof value === 'string' || value === undefined) return value;
    complaints.push({
      field: `header ${name}`,
      problem: `sent ${value.length} times, the first one is used`,
    });
    return value[0];
  };
  const out: { -readonly [K in keyof OtaHeaders]: OtaHeaders[K] } = {};
  const deviceId = get('device-id');
  if (deviceId === undefined) complaints.push({ field: 'header device-id', problem: 'missing' });
  else {
    const mac = normaliseMac(deviceId);
    if (mac.ok) out.deviceId = mac.value;
    else complaints.push({ field: 'header device-id', problem: mac.error.message });
    if (mac.ok && mac.value !== deviceId) {
      complaints.push({ field: 'header device-id', problem: `not in the firmware's form (${mac.value})` });
    }
  }
  const clientId = get('client-id');
  if (clientId === undefined) complaints.push({ field: 'header client-id', problem: 'missing' });
  else {
    out.clientId = clientId;
    if (!UUID.test(clientId)) complaints.push({ field: 'header client-id', problem: 'not a UUID' });
  }
  const optional = {
    activationVersion: 'activation-version',
    serialNumber: 'serial-number',
    acceptLanguage: 'accept-language',
  } as const;
  for (const [key, name] of Object.entries(optional) as [keyof typeof optional, string][]) {
    const value = get(name);
    if (value !== undefined) out[key] = value;
  }
  const ua = get('user-agent');
  if (ua !== undefined) {
    const match = /^(.+)\/([^/\s]+)$/.exec(ua);
    out.userAgent = match ? { raw: ua, boardName: match[1], version: match[2] } : { raw: ua };
    if (!match) complaints.push({ field: 'header user-agent', problem: 'not BOARD_NAME/version' });
  }
  return { headers: out, complaints };
}
