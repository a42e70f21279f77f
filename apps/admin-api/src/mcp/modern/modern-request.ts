import { z } from 'zod';

// MCP 2026-07-28 (basic/versioning, basic/transports/streamable-http): no initialize; each request carries its
// version, client and capabilities in `_meta`, mirrored into headers an intermediary can route on, which the
// server must check against the body.

export const MODERN_VERSION = '2026-07-28';
/** Every revision this endpoint serves, newest first (legacy ones through `initialize`). */
export const SUPPORTED_VERSIONS = [MODERN_VERSION, '2025-11-25', '2025-06-18', '2025-03-26'];

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  tasks: 'io.modelcontextprotocol/tasks',
} as const;

export const ERRORS = { headerMismatch: -32020, unsupportedVersion: -32022 } as const;

const envelopeSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]).optional(),
  method: z.string().min(1).max(200),
  params: z.record(z.string(), z.unknown()).optional(),
});

const capabilitiesSchema = z.looseObject({
  elicitation: z.looseObject({ url: z.unknown().optional() }).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

export interface ModernEnvelope {
  id: string | number | undefined;
  method: string;
  params: Record<string, unknown>;
  version: string | undefined;
  clientInfo: { name: string; version: string } | undefined;
  capabilities: z.infer<typeof capabilitiesSchema>;
  traceparent: string | undefined;
}

/** Whether a POST that opens no legacy session speaks the modern revision's per-request metadata. */
export function looksModern(body: unknown, versionHeader: string | undefined): boolean {
  const params = (body as { params?: { _meta?: Record<string, unknown> } } | null)?.params;
  if (params?._meta?.[META.protocolVersion] !== undefined) return true;
  const method = (body as { method?: unknown } | null)?.method;
  return (
    versionHeader !== undefined &&
    method !== 'initialize' &&
    !SUPPORTED_VERSIONS.slice(1).includes(versionHeader)
  );
}

export function parseEnvelope(body: unknown): ModernEnvelope | undefined {
  const parsed = envelopeSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const params = parsed.data.params ?? {};
  const meta = (
    typeof params['_meta'] === 'object' && params['_meta'] !== null ? params['_meta'] : {}
  ) as Record<string, unknown>;
  const info = z
    .object({ name: z.string().max(200), version: z.string().max(200) })
    .safeParse(meta[META.clientInfo]);
  const caps = capabilitiesSchema.safeParse(meta[META.clientCapabilities] ?? {});
  const traceparent = typeof meta['traceparent'] === 'string' ? meta['traceparent'] : undefined;
  const version = meta[META.protocolVersion];
  return {
    id: parsed.data.id,
    method: parsed.data.method,
    params,
    version: typeof version === 'string' ? version : undefined,
    clientInfo: info.success ? info.data : undefined,
    capabilities: caps.success ? caps.data : {},
    traceparent,
  };
}

/**
 * What is wrong with the request's mirrored headers (HeaderMismatch, -32020), or undefined. `Mcp-Name` may be
 * sent as `=?base64?…?=`, decoded before it is compared.
 */
export function headerMismatch(
  headers: Record<string, string | string[] | undefined>,
  request: ModernEnvelope,
): string | undefined {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const version = header('mcp-protocol-version');
  if (version === undefined) return 'Header mismatch: MCP-Protocol-Version header is required';
  if (version !== request.version) {
    return `Header mismatch: MCP-Protocol-Version header value '${version}' does not match body value '${request.version ?? '(none)'}'`;
  }
  const method = header('mcp-method');
  if (method === undefined) return 'Header mismatch: Mcp-Method header is required';
  if (method !== request.method) {
    return `Header mismatch: Mcp-Method header value '${method}' does not match body value '${request.method}'`;
  }
  if (['tools/call', 'resources/read', 'prompts/get'].includes(request.method)) {
    const bodyName = request.params['name'] ?? request.params['uri'];
    const name = header('mcp-name');
    if (name === undefined) return 'Header mismatch: Mcp-Name header is required';
    const decoded = decodeHeaderValue(name);
    if (decoded === undefined) return 'Header mismatch: Mcp-Name header value is not valid base64';
    if (decoded !== bodyName) {
      return `Header mismatch: Mcp-Name header value '${name}' does not match body value '${String(bodyName)}'`;
    }
  }
  return undefined;
}

/** The value a header carries: plain, or the `=?base64?…?=` sentinel for what ASCII cannot carry. */
export function decodeHeaderValue(value: string): string | undefined {
  if (!value.startsWith('=?base64?') || !value.endsWith('?=')) return value;
  const sentinel = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(value);
  if (!sentinel) return undefined;
  const bytes = Buffer.from(sentinel[1]!, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== sentinel[1]!.replace(/=+$/, '')) return undefined;
  return bytes.toString('utf8');
}
