import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '@fleet/telemetry';
import type { ToolAnswer } from './fleet-tool';
import type { Actor, RequestOrigin } from '../http/actor';
import { ApiError } from '../http/api-error';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Tools that only read the platform's own records. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Data as MCP asks for it: `structuredContent`, and the same JSON as text for clients that read only text. */
export function dataResult(summary: string, data: object, isError = false): CallToolResult {
  return {
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: JSON.stringify(data) },
    ],
    structuredContent: data as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}

/** A refusal the agent can read and act on (`isError`, so the model sees it, not the client library). */
export function toolError(code: string, message: string): CallToolResult {
  return { content: [{ type: 'text', text: `${code}: ${message}` }], isError: true };
}

/** Who sent the HTTP request that carried an MCP request, as the endpoint authenticated it. */
export interface RequestCaller {
  actor: Actor;
  origin: RequestOrigin;
  /** The console's public origin, where approval and evidence links point. */
  consoleUrl: string;
  /** The protocol revision of the request. */
  protocolVersion: string;
  /** MCP 2026-07-28: what the client says it is, on each request (a legacy client says it once, in initialize). */
  clientInfo?: { name: string; version: string };
  /** MCP 2026-07-28: the client's trace (`_meta.traceparent`), which the call continues. */
  traceparent?: string;
}

/** The authenticated caller of the HTTP request that carried this tool call (set by the endpoint). */
export function callerOf(extra: ToolExtra): RequestCaller {
  const caller = extra.authInfo?.extra?.['caller'] as RequestCaller | undefined;
  if (!caller) throw new ApiError(401, 'unauthenticated', 'no credentials came with this request');
  return caller;
}

/**
 * Refusals become tool errors with the API's own codes; an MCP protocol error (a URL elicitation required) goes
 * to the client as it is; anything else is logged and said to be internal.
 */
export async function guarded<T extends ToolAnswer>(
  logger: Logger,
  tool: string,
  work: () => Promise<T>,
): Promise<T | { kind: 'result'; result: CallToolResult }> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof McpError) throw err;
    if (err instanceof ApiError) return { kind: 'result', result: toolError(err.code, err.message) };
    logger.error({ err, tool }, 'MCP tool failed');
    return {
      kind: 'result',
      result: toolError('internal_error', 'internal error; the details are in the server log'),
    };
  }
}

/** A plain result as a tool's answer. */
export function answer(result: CallToolResult): { kind: 'result'; result: CallToolResult } {
  return { kind: 'result', result };
}
