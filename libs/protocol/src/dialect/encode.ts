import { toCJson } from '../json/cjson-convert';
import { printCJson } from '../json/cjson-print';
import { INT32_MAX, INT32_MIN } from '../json/cjson-value';
import { encodeListenAiDown, encodeListenAiUp } from '../listenai/envelope';
import { listenAiParams } from '../listenai/request-params';
import { firmwareErrorReply, firmwareResultReply } from '../mcp/firmware/replies';
import { assertNever, err, ok, type ProtocolError, type Result } from '../result';
import { deviceMessage } from '../xiaozhi/device-message-builders';
import { encodeServerMessage } from '../xiaozhi/encode-server-message';
import type { McpId, McpLink, McpNotification, McpOutcome, McpRequest } from './model';

export type McpEncodeError = ProtocolError<'invalid_id'>;

/**
 * A request (with id) or notification (without) as the text to publish to the device.
 * xiaozhi: `{"session_id":S,"type":"mcp","payload":{"jsonrpc":"2.0","id":N,"method":..,"params":..}}`, N an integer
 * in 0..2^31-1 (the firmware echoes `(int)valueint`); ListenAI: the `action:"mcp"` envelope with a string id.
 */
export function encodeMcpRequest(
  link: McpLink,
  message: McpRequest | McpNotification,
): Result<string, McpEncodeError> {
  const id = 'id' in message ? message.id : undefined;
  switch (link.dialect) {
    case 'xiaozhi': {
      if (id !== undefined && !isXiaozhiId(id)) return badId(id, 'an integer in 0..2147483647');
      const payload = {
        jsonrpc: '2.0',
        ...(id !== undefined ? { id } : {}),
        method: message.method,
        ...(message.params ? { params: message.params } : {}),
      };
      return ok(encodeServerMessage({ session_id: link.sessionId, type: 'mcp', payload }));
    }
    case 'listenai': {
      if (id !== undefined && typeof id !== 'string') return badId(id, 'a string');
      const params = listenAiParams(message.method, message.params);
      return ok(
        encodeListenAiDown({
          cid: link.cid,
          sid: link.sid,
          method: message.method,
          ...(id !== undefined ? { id } : {}),
          ...(params ? { params } : {}),
        }),
      );
    }
    default:
      return assertNever(link, 'link');
  }
}

/**
 * A reply as the device writes it (for the simulator and round-trip tests). xiaozhi replies are the firmware's
 * exact bytes: cJSON-printed result, error message spliced in unescaped, no error code.
 */
export function encodeMcpReply(
  link: McpLink,
  reply: { id: McpId; method?: string; outcome: McpOutcome },
): Result<string, McpEncodeError> {
  switch (link.dialect) {
    case 'xiaozhi': {
      if (
        typeof reply.id !== 'number' ||
        !Number.isInteger(reply.id) ||
        reply.id < INT32_MIN ||
        reply.id > INT32_MAX
      ) {
        return badId(reply.id, 'a 32-bit integer');
      }
      const payload =
        reply.outcome.kind === 'result'
          ? firmwareResultReply(reply.id, printCJson(toCJson(reply.outcome.result)))
          : firmwareErrorReply(reply.id, reply.outcome.error.message);
      return ok(deviceMessage.mcp(link.sessionId, payload));
    }
    case 'listenai': {
      if (typeof reply.id !== 'string') return badId(reply.id, 'a string');
      const body =
        reply.outcome.kind === 'result' ? { result: reply.outcome.result } : { error: reply.outcome.error };
      return ok(
        encodeListenAiUp({
          id: reply.id,
          ...(reply.method !== undefined ? { method: reply.method } : {}),
          ...body,
        }),
      );
    }
    default:
      return assertNever(link, 'link');
  }
}

function isXiaozhiId(id: McpId): boolean {
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 && id <= INT32_MAX;
}

function badId(id: McpId, expected: string): { ok: false; error: McpEncodeError } {
  return err({ kind: 'invalid_id', message: `id ${JSON.stringify(id)} must be ${expected} in this dialect` });
}
