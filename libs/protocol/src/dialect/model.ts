import { z } from 'zod';
import { REPAIR_KINDS } from '../mcp/firmware/reply-repair';
import { jsonObjectSchema } from '../xiaozhi/common-schemas';

/**
 * The one model both dialects are read into and written from (listenai.md): the orchestrator speaks only this,
 * never an envelope. Wire → model in dialect/decode.ts, model → wire in dialect/encode.ts.
 */
export const DIALECTS = ['xiaozhi', 'listenai'] as const;
export const dialectSchema = z.enum(DIALECTS);
export type Dialect = z.infer<typeof dialectSchema>;

/** xiaozhi ids are numbers (below 2^31, DESIGN §3); ListenAI ids are strings. */
export const mcpIdSchema = z.union([z.int(), z.string().min(1)]);
export type McpId = z.infer<typeof mcpIdSchema>;

export const mcpRequestSchema = z.object({
  id: mcpIdSchema,
  method: z.string().min(1),
  params: jsonObjectSchema.optional(),
});
export const mcpNotificationSchema = z.object({
  method: z.string().min(1),
  params: jsonObjectSchema.optional(),
});
export type McpRequest = z.infer<typeof mcpRequestSchema>;
export type McpNotification = z.infer<typeof mcpNotificationSchema>;

/** Where a message goes: the envelope fields each dialect needs besides the JSON-RPC part. */
export const mcpLinkSchema = z.discriminatedUnion('dialect', [
  z.object({ dialect: z.literal('xiaozhi'), sessionId: z.string() }),
  z.object({ dialect: z.literal('listenai'), cid: z.string(), sid: z.string() }),
]);
export type McpLink = z.infer<typeof mcpLinkSchema>;

export const mcpErrorSchema = z.object({ message: z.string(), code: z.number().optional() });
export type McpError = z.infer<typeof mcpErrorSchema>;

export const mcpOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('result'), result: z.unknown() }),
  z.object({ kind: z.literal('error'), error: mcpErrorSchema }),
]);
export type McpOutcome = z.infer<typeof mcpOutcomeSchema>;

/** A device's answer to one request, whichever dialect it came in. */
export const mcpReplySchema = z.object({
  dialect: dialectSchema,
  id: mcpIdSchema,
  /** ListenAI echoes the method; xiaozhi does not. */
  method: z.string().optional(),
  outcome: mcpOutcomeSchema,
  /** xiaozhi: the session_id the reply carried (stale or "" while idle). */
  sessionId: z.string().optional(),
  /** Set when the firmware's unescaped JSON had to be read around. */
  repaired: z.enum(REPAIR_KINDS).optional(),
});
export type McpReply = z.infer<typeof mcpReplySchema>;

export const MCP_PROTOCOL_VERSION = '2024-11-05';

/** The requests the platform sends, as model values. */
export const mcpRequests = {
  initialize: (
    id: McpId,
    options: {
      vision?: { url: string; token?: string };
      clientInfo?: { name: string; version: string };
    } = {},
  ): McpRequest => ({
    id,
    method: 'initialize',
    params: {
      protocolVersion: MCP_PROTOCOL_VERSION,
      capabilities: options.vision ? { vision: options.vision } : {},
      ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
    },
  }),
  toolsList: (id: McpId, options: { cursor?: string; withUserTools?: boolean } = {}): McpRequest => ({
    id,
    method: 'tools/list',
    params: {
      ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
      ...(options.withUserTools !== undefined ? { withUserTools: options.withUserTools } : {}),
    },
  }),
  toolsCall: (id: McpId, name: string, args: Record<string, unknown>): McpRequest => ({
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  }),
};

export const INITIALIZED_NOTIFICATION: McpNotification = { method: 'notifications/initialized' };
