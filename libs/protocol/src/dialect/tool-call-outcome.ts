import { z } from 'zod';
import { assertNever, err, ok, type ProtocolError, type Result } from '../result';
import type { Dialect, McpOutcome, McpReply } from './model';

/** MCP content items: text everywhere; ListenAI images as {data, mimeType}; the firmware's stringified image. */
export const contentItemSchema = z.union([
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
  z.looseObject({ type: z.literal('image'), image: z.string() }),
  z.looseObject({ type: z.string() }),
]);
export type ContentItem = z.infer<typeof contentItemSchema>;

const toolResultSchema = z.looseObject({
  content: z.array(contentItemSchema),
  isError: z.boolean().optional(),
});

/**
 * A tools/call answer, the same for both dialects. `firmwareBoolean` is set when the whole text is exactly
 * "true" or "false" (DESIGN §1: a tool that answers "false", like set_theme with an unknown theme, is a device_error).
 * A failure says how it came: a JSON-RPC error (xiaozhi) or `isError:true` (ListenAI).
 */
export const toolCallOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('success'),
    content: z.array(contentItemSchema),
    text: z.string(),
    firmwareBoolean: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('failure'),
    via: z.enum(['jsonrpc_error', 'is_error']),
    message: z.string(),
    code: z.number().optional(),
    content: z.array(contentItemSchema).optional(),
  }),
]);
export type ToolCallOutcome = z.infer<typeof toolCallOutcomeSchema>;

export function readToolCallOutcome(
  reply: McpReply,
): Result<ToolCallOutcome, ProtocolError<'malformed_result'>> {
  const outcome = reply.outcome;
  if (outcome.kind === 'error') {
    return ok({
      kind: 'failure',
      via: 'jsonrpc_error',
      message: outcome.error.message,
      ...(outcome.error.code !== undefined ? { code: outcome.error.code } : {}),
    });
  }
  const parsed = toolResultSchema.safeParse(outcome.result);
  if (!parsed.success) {
    return err({ kind: 'malformed_result', message: 'a tools/call result needs a content array' });
  }
  const content = parsed.data.content;
  const text = content
    .flatMap((c) => (c.type === 'text' && typeof c['text'] === 'string' ? [c['text']] : []))
    .join('\n');
  if (parsed.data.isError === true) return ok({ kind: 'failure', via: 'is_error', message: text, content });
  const firmwareBoolean = text === 'true' ? true : text === 'false' ? false : undefined;
  return ok({
    kind: 'success',
    content,
    text,
    ...(firmwareBoolean !== undefined ? { firmwareBoolean } : {}),
  });
}

/** The reverse, for a simulated device: how each dialect reports a tool's outcome (listenai.md table). */
export function toolCallOutcomeToReply(dialect: Dialect, outcome: ToolCallOutcome): McpOutcome {
  if (outcome.kind === 'success') {
    return { kind: 'result', result: { content: outcome.content, isError: false } };
  }
  switch (dialect) {
    case 'xiaozhi':
      return { kind: 'error', error: { message: outcome.message } };
    case 'listenai':
      return {
        kind: 'result',
        result: { content: outcome.content ?? [{ type: 'text', text: outcome.message }], isError: true },
      };
    default:
      return assertNever(dialect, 'dialect');
  }
}
