import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '@fleet/telemetry';
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

/** The authenticated caller of the HTTP request that carried this tool call (set by the endpoint). */
export function callerOf(extra: ToolExtra): { actor: Actor; origin: RequestOrigin } {
  const caller = extra.authInfo?.extra?.['caller'] as { actor: Actor; origin: RequestOrigin } | undefined;
  if (!caller) throw new ApiError(401, 'unauthenticated', 'no credentials came with this request');
  return caller;
}

/** Refusals become tool errors with the API's own codes; anything else is logged and said to be internal. */
export async function guarded(
  logger: Logger,
  tool: string,
  work: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError) return toolError(err.code, err.message);
    logger.error({ err, tool }, 'MCP tool failed');
    return toolError('internal_error', 'internal error; the details are in the server log');
  }
}
