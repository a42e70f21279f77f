import type { ParametersPayload, ResponsePayload } from '@fleet/api-contract';
import type { Dialect } from '@fleet/api-contract';

/** Bytes the API sent as base64 (firmware JSON can be invalid), as UTF-8 text. */
export function decodeBase64(base64: string): string {
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

export interface ShownJson {
  text: string;
  /** The text parsed as JSON (and is shown indented); false: shown exactly as received. */
  json: boolean;
}

export function prettyJson(text: string): ShownJson {
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), json: true };
  } catch {
    return { text, json: false };
  }
}

export interface RawExchange {
  /** The JSON-RPC request as it went out (rebuilt from the evidence: id, tool, the exact arguments). */
  request: string | undefined;
  /** The reply exactly as received, decoded; undefined when no reply came. */
  reply: ShownJson | undefined;
  /** The firmware did not escape its JSON; the platform read it literally as this. */
  repaired: string | undefined;
}

/** The JSON-RPC exchange of a call, from its parameters and response rows, in the device's dialect. */
export function rawExchange(
  tool: string,
  parameters: ParametersPayload | undefined,
  response: ResponsePayload | undefined,
  dialect: Dialect = 'xiaozhi',
): RawExchange {
  const sent = response !== undefined && response.outcome !== 'not_sent';
  const params = parameters?.sent ?? { name: tool, arguments: parameters?.arguments ?? {} };
  const request =
    sent && response.jsonrpcId !== undefined
      ? JSON.stringify(requestOf(dialect, response.jsonrpcId, params, response.connectionId), null, 2)
      : undefined;
  return {
    request,
    reply: response?.raw !== undefined ? prettyJson(decodeBase64(response.raw)) : undefined,
    repaired: response?.repaired,
  };
}

/**
 * The request as it went out. ListenAI (listenai.md): the cloud's envelope with a string id, which the platform
 * writes as the durable number in 32 hex digits, and cid/sid from the connection id (libs/protocol,
 * listenai/request-ids.ts); xiaozhi: JSON-RPC in the mcp payload.
 */
function requestOf(
  dialect: Dialect,
  id: number | string,
  params: unknown,
  connectionId: string | undefined,
): object {
  if (dialect === 'xiaozhi') return { jsonrpc: '2.0', id, method: 'tools/call', params };
  const hex = (connectionId ?? '').replace(/-/g, '');
  const cid = /^[0-9a-f]{32}$/.test(hex) ? hex : '0'.repeat(32);
  const data = {
    method: 'tools/call',
    id: typeof id === 'number' ? id.toString(16).padStart(32, '0') : id,
    params,
  };
  return { action: 'mcp', cid, sid: cid.slice(20), code: '0', data, desc: 'success' };
}
