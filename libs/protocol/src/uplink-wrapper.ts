import { z } from 'zod';
import { dialectSchema } from './dialect/model';
import { macSchema } from './mac';
import { err, ok, type ProtocolError, type Result } from './result';
import { describeZodError } from './zod-issues';
import { readJsonObject, type JsonReadErrorKind } from './json/read-json-object';

/** W3C trace context: version-traceid-parentid-flags. */
export const traceparentSchema = z
  .string()
  .regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/, 'a W3C traceparent');

/**
 * DESIGN §2: every device publish, re-published by the broker on fleet/devices/<mac_>/up/<kind>.
 * `raw` is standard base64 of the exact bytes the device sent (firmware JSON can be invalid; evidence keeps it).
 */
export const uplinkWrapperSchema = z.object({
  mac: macSchema,
  connectionId: z.string().min(1),
  receivedAt: z.iso.datetime({ offset: true }),
  traceparent: traceparentSchema,
  raw: z.base64(),
  /** The dialect `raw` is written in; absent means xiaozhi (the MQTT edge). The ListenAI link names it. */
  dialect: dialectSchema.optional(),
});
export type UplinkWrapper = z.infer<typeof uplinkWrapperSchema>;

export const PRESENCE_STATES = ['online', 'offline'] as const;

/** DESIGN §2: the broker's presence event on fleet/devices/<mac_>/presence, keyed by connection id. */
export const presenceEventSchema = z.object({
  mac: macSchema,
  connectionId: z.string().min(1),
  /** DESIGN §3: the Client-Id is a secret; events carry only the fingerprint of its hash. */
  clientIdFingerprint: z.string().regex(/^[0-9a-f]{8}$/, 'eight hex digits'),
  brokerId: z.string().min(1),
  state: z.enum(PRESENCE_STATES),
  reason: z.string().max(200).optional(),
  at: z.iso.datetime({ offset: true }),
  /** Seconds, from the MQTT CONNECT (the device's NVS mqtt.keepalive, default 240). */
  keepalive: z.int().min(0).max(65535).optional(),
});
export type PresenceEvent = z.infer<typeof presenceEventSchema>;

/** The wrapper's JSON text; refused (not thrown) when a field is not what the contract says. */
export function encodeUplinkWrapper(
  w: Omit<UplinkWrapper, 'raw'> & { raw: Uint8Array },
): Result<string, ProtocolError<'invalid_wrapper'>> {
  const parsed = uplinkWrapperSchema.safeParse({ ...w, raw: Buffer.from(w.raw).toString('base64') });
  return parsed.success
    ? ok(JSON.stringify(parsed.data))
    : err({ kind: 'invalid_wrapper', message: describeZodError(parsed.error) });
}

export type WrapperReadError = ProtocolError<JsonReadErrorKind | 'invalid_wrapper'>;

/** The wrapper with `raw` decoded back to the device's bytes. */
export function decodeUplinkWrapper(
  input: string | Uint8Array,
): Result<UplinkWrapper & { bytes: Uint8Array }, WrapperReadError> {
  const json = readJsonObject(input, 1024 * 1024);
  if (!json.ok) return json;
  const parsed = uplinkWrapperSchema.safeParse(json.value);
  if (!parsed.success) return err({ kind: 'invalid_wrapper', message: describeZodError(parsed.error) });
  return ok({ ...parsed.data, bytes: new Uint8Array(Buffer.from(parsed.data.raw, 'base64')) });
}

export function encodePresenceEvent(event: PresenceEvent): Result<string, ProtocolError<'invalid_presence'>> {
  const parsed = presenceEventSchema.safeParse(event);
  return parsed.success
    ? ok(JSON.stringify(parsed.data))
    : err({ kind: 'invalid_presence', message: describeZodError(parsed.error) });
}

export function decodePresenceEvent(
  input: string | Uint8Array,
): Result<PresenceEvent, ProtocolError<JsonReadErrorKind | 'invalid_presence'>> {
  const json = readJsonObject(input, 64 * 1024);
  if (!json.ok) return json;
  const parsed = presenceEventSchema.safeParse(json.value);
  return parsed.success
    ? ok(parsed.data)
    : err({ kind: 'invalid_presence', message: describeZodError(parsed.error) });
}
