import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Json } from './harness';

/**
 * The official SDK client on /mcp with a bearer credential (an API key or an access token). With `version`, it
 * asks for that revision in initialize, as a client of that revision does (the SDK asks for its latest).
 */
export async function connectMcp(
  url: string,
  credential: string,
  opts: { name?: string; version?: string; capabilities?: Record<string, unknown> } = {},
): Promise<Client> {
  const client = new Client(
    { name: opts.name ?? `agent-${opts.version ?? 'latest'}`, version: '1' },
    { capabilities: opts.capabilities ?? {} },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${credential}` } },
  });
  const version = opts.version;
  if (version) {
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options) => {
      if ('method' in message && message.method === 'initialize') {
        message = { ...message, params: { ...message.params, protocolVersion: version } };
      }
      return send(message, options);
    };
  }
  await client.connect(transport);
  return client;
}

let rpcId = 0;

/**
 * A hand-built MCP 2026-07-28 request (no SDK speaks it yet): its version, client and capabilities in `_meta`
 * (URL elicitation by default; `params._meta` adds or replaces), and the headers the revision requires.
 */
export async function modernRequest(
  url: string,
  credential: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'hand-built', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } },
    ...((params['_meta'] as object) ?? {}),
  };
  const name: Record<string, string> =
    typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : {};
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${credential}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...name,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params: { ...params, _meta: meta } }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** An initialize request as a 2025-11-25 client sends it, for tests that read the HTTP answer itself. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw-http', version: '1' },
  },
};

/** The Accept header Streamable HTTP asks of a client. */
export const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };
