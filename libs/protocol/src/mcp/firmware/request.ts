import { cjsonStringValue, getItemCaseInsensitive, isCJsonObject } from '../../json/cjson-lookup';
import { parseCJson } from '../../json/cjson-parse';
import type { CJsonValue } from '../../json/cjson-value';

/** Why the firmware answered nothing (xiaozhi §3.1); usable as a metric label. */
export type FirmwareDropReason =
  | 'invalid_json'
  | 'jsonrpc_not_2_0'
  | 'method_not_string'
  | 'notification'
  | 'params_not_object'
  | 'id_not_number';

/** What McpServer::ParseMessage makes of one request, before anything runs. */
export type FirmwareRequest =
  | { readonly kind: 'dropped'; readonly reason: FirmwareDropReason; readonly message: string }
  | {
      readonly kind: 'initialize';
      readonly id: number;
      readonly vision?: { readonly url: string; readonly token: string };
    }
  | {
      readonly kind: 'tools/list';
      readonly id: number;
      readonly cursor: string;
      readonly withUserTools: boolean;
    }
  | { readonly kind: 'tools/call'; readonly id: number; readonly params: CJsonValue | undefined }
  | { readonly kind: 'not_implemented'; readonly id: number; readonly method: string };

/**
 * McpServer::ParseMessage, in the firmware's order: jsonrpc must be the string "2.0", method a string,
 * "notifications…" is ignored, params (when present) an object, id a JSON number (echoed as its saturated int).
 * Every key lookup is case-insensitive and the first duplicate wins (cJSON_GetObjectItem).
 */
export function readFirmwareRequest(input: string | Uint8Array | CJsonValue): FirmwareRequest {
  let json: CJsonValue;
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const parsed = parseCJson(input);
    if (!parsed.ok) return dropped('invalid_json', parsed.error.message);
    json = parsed.value;
  } else json = input;

  if (cjsonStringValue(getItemCaseInsensitive(json, 'jsonrpc')) !== '2.0') {
    return dropped('jsonrpc_not_2_0', 'jsonrpc is not the string "2.0"');
  }
  const method = cjsonStringValue(getItemCaseInsensitive(json, 'method'));
  if (method === undefined) return dropped('method_not_string', 'method is missing or not a string');
  if (method.startsWith('notifications')) return dropped('notification', `${method} is a notification`);
  const params = getItemCaseInsensitive(json, 'params');
  if (params !== undefined && params.kind !== 'object') {
    return dropped('params_not_object', `params of ${method} is not an object`);
  }
  const id = getItemCaseInsensitive(json, 'id');
  if (id?.kind !== 'number') return dropped('id_not_number', `id of ${method} is missing or not a number`);

  switch (method) {
    case 'initialize':
      return { kind: 'initialize', id: id.valueint, ...visionOf(params) };
    case 'tools/list':
      return { kind: 'tools/list', id: id.valueint, ...toolsListParams(params) };
    case 'tools/call':
      return { kind: 'tools/call', id: id.valueint, params };
    default:
      return { kind: 'not_implemented', id: id.valueint, method };
  }
}

function dropped(reason: FirmwareDropReason, message: string): FirmwareRequest {
  return { kind: 'dropped', reason, message };
}

// McpServer::ParseCapabilities: a string url is enough; a token that is not a string is read as "".
function visionOf(params: CJsonValue | undefined): { vision?: { url: string; token: string } } {
  const capabilities = getItemCaseInsensitive(params, 'capabilities');
  const vision = isCJsonObject(capabilities) ? getItemCaseInsensitive(capabilities, 'vision') : undefined;
  if (!isCJsonObject(vision)) return {};
  const url = cjsonStringValue(getItemCaseInsensitive(vision, 'url'));
  if (url === undefined) return {};
  return { vision: { url, token: cjsonStringValue(getItemCaseInsensitive(vision, 'token')) ?? '' } };
}

// xiaozhi §3.1: a cursor that is not a string and a withUserTools that is not a bool are ignored.
function toolsListParams(params: CJsonValue | undefined): { cursor: string; withUserTools: boolean } {
  const withUserTools = getItemCaseInsensitive(params, 'withUserTools');
  return {
    cursor: cjsonStringValue(getItemCaseInsensitive(params, 'cursor')) ?? '',
    withUserTools: withUserTools?.kind === 'bool' && withUserTools.value,
  };
}
