import { readJsonObject, type JsonReadErrorKind } from '../json/read-json-object';
import { listenAiDownSchema, listenAiIdNearStart, listenAiUpSchema } from '../listenai/envelope';
import { assertNever, err, ok, type ProtocolError, type Result } from '../result';
import { describeZodError } from '../zod-issues';
import {
  parseDeviceMessage,
  DEFAULT_MAX_DEVICE_MESSAGE_BYTES,
  type DeviceMessageErrorKind,
} from '../xiaozhi/parse-device-message';
import { serverMcpMessageSchema } from '../xiaozhi/server-messages';
import {
  mcpIdSchema,
  type Dialect,
  type McpId,
  type McpLink,
  type McpNotification,
  type McpOutcome,
  type McpReply,
  type McpRequest,
} from './model';

export type McpDecodeErrorKind =
  DeviceMessageErrorKind | JsonReadErrorKind | 'not_mcp' | 'invalid_reply' | 'invalid_request';

export type McpDecodeError = ProtocolError<McpDecodeErrorKind> & {
  readonly id?: McpId;
  readonly sessionId?: string;
};

/**
 * One device publish to the model's reply (server side). Never throws; the error kinds are metric labels.
 * A firmware reply broken by unescaped text is repaired and marked; if even that fails, the id is kept.
 */
export function decodeMcpReply(
  dialect: Dialect,
  input: string | Uint8Array,
  options: { maxBytes?: number } = {},
): Result<McpReply, McpDecodeError> {
  const max = options.maxBytes ?? DEFAULT_MAX_DEVICE_MESSAGE_BYTES;
  switch (dialect) {
    case 'xiaozhi': {
      const parsed = parseDeviceMessage(input, { maxBytes: max });
      if (!parsed.ok) return parsed;
      const { message, repaired } = parsed.value;
      if (message.type !== 'mcp') {
        return err({ kind: 'not_mcp', message: `a ${message.type} message, not mcp` });
      }
      const payload = message.payload;
      const id = mcpIdSchema.safeParse(payload['id']);
      if (!id.success) {
        return err({
          kind: 'invalid_reply',
          message: 'the reply has no usable id',
          sessionId: message.session_id,
        });
      }
      const outcome = outcomeOf(payload['result'], payload['error']);
      if (!outcome) {
        return err({
          kind: 'invalid_reply',
          message: 'neither result nor error',
          id: id.data,
          sessionId: message.session_id,
        });
      }
      return ok({
        dialect,
        id: id.data,
        outcome,
        sessionId: message.session_id,
        ...(repaired ? { repaired } : {}),
      });
    }
    case 'listenai': {
      const json = readJsonObject(input, max);
      const nearId = () => {
        const id = listenAiIdNearStart(input);
        return id === undefined ? {} : { id };
      };
      if (!json.ok) return err({ ...json.error, ...nearId() });
      const up = listenAiUpSchema.safeParse(json.value);
      if (!up.success) {
        return err({ kind: 'invalid_reply', message: describeZodError(up.error), ...nearId() });
      }
      // listenAiUpSchema already refused a reply with neither result nor error
      const outcome = outcomeOf(up.data.result, up.data.error)!;
      return ok({
        dialect,
        id: up.data.id,
        ...(up.data.method !== undefined ? { method: up.data.method } : {}),
        outcome,
      });
    }
    default:
      return assertNever(dialect, 'dialect');
  }
}

function outcomeOf(result: unknown, error: unknown): McpOutcome | undefined {
  if (error !== undefined && typeof error === 'object' && error !== null) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    return {
      kind: 'error',
      error: {
        message: typeof message === 'string' ? message : JSON.stringify(message ?? null),
        ...(typeof code === 'number' ? { code } : {}),
      },
    };
  }
  return result === undefined ? undefined : { kind: 'result', result };
}

/**
 * One platform → device publish to the model (device side: the simulator and round-trip tests). The firmware's
 * own reading of a xiaozhi request, with its quirks, is readFirmwareRequest / McpServerCore.
 */
export function decodeMcpRequest(
  dialect: Dialect,
  input: string | Uint8Array,
): Result<{ link: McpLink; message: McpRequest | McpNotification }, McpDecodeError> {
  const json = readJsonObject(input, DEFAULT_MAX_DEVICE_MESSAGE_BYTES);
  if (!json.ok) return json;
  switch (dialect) {
    case 'xiaozhi': {
      const m = serverMcpMessageSchema.safeParse(json.value);
      if (!m.success) return err({ kind: 'not_mcp', message: describeZodError(m.error) });
      const { id, method, params } = m.data.payload;
      return toMessage({ dialect, sessionId: m.data.session_id }, id, method, params);
    }
    case 'listenai': {
      const m = listenAiDownSchema.safeParse(json.value);
      if (!m.success) return err({ kind: 'not_mcp', message: describeZodError(m.error) });
      return toMessage(
        { dialect, cid: m.data.cid, sid: m.data.sid },
        m.data.data.id,
        m.data.data.method,
        m.data.data.params,
      );
    }
    default:
      return assertNever(dialect, 'dialect');
  }
}

function toMessage(
  link: McpLink,
  id: unknown,
  method: unknown,
  params: unknown,
): Result<{ link: McpLink; message: McpRequest | McpNotification }, McpDecodeError> {
  if (typeof method !== 'string' || method === '') {
    return err({ kind: 'invalid_request', message: 'method is not a string' });
  }
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    return err({ kind: 'invalid_request', message: 'params is not an object' });
  }
  const p = params === undefined ? {} : { params: params as Record<string, unknown> };
  if (id === undefined) return ok({ link, message: { method, ...p } });
  const parsedId = mcpIdSchema.safeParse(id);
  if (!parsedId.success) {
    return err({ kind: 'invalid_request', message: 'id is neither an integer nor a string' });
  }
  return ok({ link, message: { id: parsedId.data, method, ...p } });
}
