import { fleetUplinkTopic, uplinkKindOf, type Mac, type UplinkKind } from '@fleet/protocol';
import { idRandomness } from '../util/random-pool';

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
 *
 * This runs on every device publish, so the JSON is written by hand instead of through the contract's encoder
 * (encodeUplinkWrapper: a zod parse, a base64 regex over the whole payload, then JSON.stringify scanning every
 * character for escapes). Every field comes from the broker itself and is plain ASCII that JSON never escapes:
 * a MAC validated at CONNECT, its own uuid, an ISO date, hex and base64. The spec reads what this writes with
 * the contract's decoder.
 */
export function wrapUplink(
  mac: Mac,
  connectionId: string,
  raw: Buffer,
  receivedAt = new Date(),
): WrappedUplink {
  const type = messageTypeOf(raw);
  const kind = uplinkKindOf(type);
  const json =
    `{"mac":"${mac}","connectionId":"${connectionId}","receivedAt":"${receivedAt.toISOString()}",` +
    `"traceparent":"${newTraceparent()}","raw":"${raw.toString('base64')}"}`;
  return { topic: fleetUplinkTopic(mac, kind), payload: Buffer.from(json, 'latin1'), kind, type };
}

/** A new W3C trace for a device-originated message (the device has no trace context of its own). */
function newTraceparent(): string {
  return `00-${idRandomness.hex(16)}-${idRandomness.hex(8)}-01`;
}
