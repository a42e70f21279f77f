import type { JsonObject } from '../../xiaozhi/common-schemas';

/** Which part of a firmware reply had to be read literally because the firmware did not escape it. */
export const REPAIR_KINDS = [
  'unescaped_session_id',
  'unescaped_error_message',
  'unescaped_next_cursor',
  'unescaped_server_info',
] as const;
export type RepairKind = (typeof REPAIR_KINDS)[number];

export type PayloadRepair =
  | { readonly ok: true; readonly payload: JsonObject; readonly repaired: RepairKind }
  | { readonly ok: false; readonly id?: number };

// The firmware's own templates (McpServer::ReplyError, ReplyResult, GetToolsList, the initialize result).
const ERROR_REPLY = /^\{"jsonrpc":"2\.0","id":(-?\d+),"error":\{"message":"([\s\S]*)"\}\}$/;
const RESULT_REPLY = /^\{"jsonrpc":"2\.0","id":(-?\d+),"result":([\s\S]*)\}$/;
const TOOLS_PAGE = /^\{"tools":(\[[\s\S]*\]),"nextCursor":"([\s\S]*)"\}$/;
const INITIALIZE =
  /^\{"protocolVersion":"2024-11-05","capabilities":\{"tools":\{\}\},"serverInfo":\{"name":"([\s\S]*)","version":"([\s\S]*)"\}\}$/;
const ANY_REPLY_ID = /^\{"jsonrpc":"2\.0","id":(-?\d+),/;

/**
 * The firmware splices an error message, a nextCursor, the board name and the version into its replies unescaped
 * (xiaozhi §3.1). For replies of those templates the text between the fixed parts is exactly what the firmware
 * meant, whether or not the result happens to be valid JSON (`a\b` parses, as a backspace). Undefined for any
 * other reply, whose strings cJSON escaped properly.
 */
export function literalFirmwarePayload(
  text: string,
): { payload: JsonObject; repaired: RepairKind } | undefined {
  const error = ERROR_REPLY.exec(text);
  if (error) {
    return {
      payload: { jsonrpc: '2.0', id: Number(error[1]), error: { message: error[2] } },
      repaired: 'unescaped_error_message',
    };
  }
  const result = RESULT_REPLY.exec(text);
  if (!result) return undefined;
  const resultText = result[2] ?? '';
  const page = TOOLS_PAGE.exec(resultText);
  const tools = page ? tryParse(page[1] ?? '') : undefined;
  if (page && Array.isArray(tools)) {
    return {
      payload: { jsonrpc: '2.0', id: Number(result[1]), result: { tools, nextCursor: page[2] } },
      repaired: 'unescaped_next_cursor',
    };
  }
  const init = INITIALIZE.exec(resultText);
  if (init) {
    const serverInfo = { name: init[1], version: init[2] };
    return {
      payload: {
        jsonrpc: '2.0',
        id: Number(result[1]),
        result: { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo },
      },
      repaired: 'unescaped_server_info',
    };
  }
  return undefined;
}

// What JSON.stringify would escape in a string; surrogates too, so that a lone one (escaped) never slips by.
// eslint-disable-next-line no-control-regex -- control characters are exactly what JSON escapes
const ESCAPED_IN_JSON = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * True when literalFirmwarePayload could not read `text` differently from JSON.parse's `parsed`, decided without
 * running it (a tools/list page is up to ~8 KB, and the literal reading reads it three more times). The text must be
 * exactly JSON.stringify of what was parsed: then no string holds an unescaped `"` and no key repeats. A reply that
 * does not start as a template does (`jsonrpc`, `id`, then `result` or `error`, the result an object opening with
 * `tools` or `protocolVersion`) matches none. A page is read alike only in the template's exact shape with a
 * nextCursor JSON would not escape; error replies and initialize results (short) are left to the literal reading.
 * The firmware's own pages are in that form (protocol/vectors).
 */
export function readsAlikeLiterally(text: string, parsed: unknown): boolean {
  if (!isObject(parsed) || JSON.stringify(parsed) !== text) return false;
  const [jsonrpc, id, outcome, ...rest] = Object.keys(parsed);
  if (jsonrpc !== 'jsonrpc' || id !== 'id' || (outcome !== 'result' && outcome !== 'error')) return true;
  if (outcome === 'error' || rest.length > 0) return false;
  const result = parsed['result'];
  const opening = isObject(result) ? Object.keys(result)[0] : undefined;
  if (opening !== 'tools' && opening !== 'protocolVersion') return true;
  if (!isObject(result) || Object.keys(result).join() !== 'tools,nextCursor') return false;
  const cursor = result['nextCursor'];
  return Array.isArray(result['tools']) && typeof cursor === 'string' && !ESCAPED_IN_JSON.test(cursor);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** For a payload that is not valid JSON: its literal reading, else at least its id when it starts like a reply. */
export function repairFirmwarePayload(text: string): PayloadRepair {
  const literal = literalFirmwarePayload(text);
  if (literal) return { ok: true, ...literal };
  const id = ANY_REPLY_ID.exec(text);
  return id ? { ok: false, id: Number(id[1]) } : { ok: false };
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
