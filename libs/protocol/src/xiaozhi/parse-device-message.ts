import { decodeUtf8 } from '../json/utf8';
import type { RepairKind } from '../mcp/firmware/reply-repair';
import { err, ok, type ProtocolError, type Result } from '../result';
import { describeZodError } from '../zod-issues';
import { readMcpEnvelope } from './mcp-envelope-literal';
import {
  DEVICE_MESSAGE_TYPES,
  deviceMessageSchema,
  type DeviceMessage,
  type DeviceMessageType,
} from './device-messages';

/** Far above anything the firmware sends (a tools/list page is at most ~8 KB). */
export const DEFAULT_MAX_DEVICE_MESSAGE_BYTES = 64 * 1024;

export type DeviceMessageErrorKind =
  'too_large' | 'invalid_json' | 'not_an_object' | 'missing_type' | 'unknown_type' | 'invalid_message';

export type DeviceMessageError = ProtocolError<DeviceMessageErrorKind> & {
  readonly type?: string;
  readonly sessionId?: string;
  /** The JSON-RPC id of an MCP reply that could not be read, when it could still be found. */
  readonly id?: number;
};

export interface ParsedDeviceMessage {
  readonly message: DeviceMessage;
  /** Set when part of an MCP reply had to be read literally because the firmware did not escape it. */
  readonly repaired?: RepairKind;
}

/**
 * Reads one device → server publish (xiaozhi §2.1). Never throws: malformed JSON, a non-object, a missing or
 * unknown type, a message that does not fit its type, or an oversized payload each come back as a typed error.
 * An MCP reply is read literally where the firmware did not escape it (see readMcpEnvelope), which also repairs
 * the replies that this made invalid JSON.
 */
export function parseDeviceMessage(
  input: string | Uint8Array,
  options: { maxBytes?: number } = {},
): Result<ParsedDeviceMessage, DeviceMessageError> {
  const max = options.maxBytes ?? DEFAULT_MAX_DEVICE_MESSAGE_BYTES;
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.length;
  if (size > max) return err({ kind: 'too_large', message: `${size} bytes, the limit is ${max}` });
  const text = typeof input === 'string' ? input : decodeUtf8(input);

  let parsed: unknown;
  let jsonError = '';
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    jsonError = (e as Error).message;
  }
  const envelope = readMcpEnvelope(text, parsed);
  if (envelope && !envelope.ok) return err({ kind: 'invalid_json', message: jsonError, ...envelope.partial });
  if (!envelope && parsed === undefined) return err({ kind: 'invalid_json', message: jsonError });
  const value = envelope ? envelope.value : parsed;
  const repaired = envelope?.repaired;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return err({
      kind: 'not_an_object',
      message: `a JSON ${Array.isArray(value) ? 'array' : typeof value}, not an object`,
    });
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string') {
    return err({ kind: 'missing_type', message: 'type is missing or not a string' });
  }
  if (!DEVICE_MESSAGE_TYPES.includes(type as DeviceMessageType)) {
    return err({ kind: 'unknown_type', message: `unknown message type ${JSON.stringify(type)}`, type });
  }
  const checked = deviceMessageSchema.safeParse(value);
  if (!checked.success) {
    return err({ kind: 'invalid_message', message: describeZodError(checked.error), type });
  }
  return ok(repaired ? { message: checked.data, repaired } : { message: checked.data });
}
