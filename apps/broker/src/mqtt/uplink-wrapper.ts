import { randomBytes } from 'node:crypto';
import {
  encodeUplinkWrapper,
  fleetUplinkTopic,
  uplinkKindOf,
  type Mac,
  type UplinkKind,
} from '@fleet/protocol';

// The firmware writes `{"session_id":"…","type":"…",…}`; the type is found in the first bytes without parsing
// the whole message (a tools/list page is ~8 KB, and the broker only routes it). A message whose type cannot
// be read this way still travels, as kind `other`: the reader decides what it was.
const TYPE_NEAR_START = /"type"\s*:\s*"([A-Za-z_]{1,32})"/;
const SCAN_BYTES = 256;

export function messageTypeOf(raw: Buffer): string | undefined {
  return TYPE_NEAR_START.exec(raw.toString('latin1', 0, Math.min(raw.length, SCAN_BYTES)))?.[1];
}

export interface WrappedUplink {
  topic: string;
  payload: Buffer;
  kind: UplinkKind;
  type: string | undefined;
}

/**
 * DESIGN §2: `{mac, connectionId, receivedAt, traceparent, raw}` on fleet/devices/<mac_>/up/<kind>, by the
 * authenticated identity, so no device can speak for another. `raw` keeps the exact bytes.
 */
export function wrapUplink(
  mac: Mac,
  connectionId: string,
  raw: Buffer,
  receivedAt = new Date(),
): WrappedUplink {
  const type = messageTypeOf(raw);
  const kind = uplinkKindOf(type);
  const encoded = encodeUplinkWrapper({
    mac,
    connectionId,
    receivedAt: receivedAt.toISOString(),
    traceparent: newTraceparent(),
    raw,
  });
  // The inputs come from the broker itself (a validated MAC, its own ids), so this cannot fail in practice.
  if (!encoded.ok) throw new Error(`cannot wrap an uplink: ${encoded.error.message}`);
  return { topic: fleetUplinkTopic(mac, kind), payload: Buffer.from(encoded.value), kind, type };
}

/** A new W3C trace for a device-originated message (the device has no trace context of its own). */
function newTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}
