import { z } from 'zod';
import { err, ok, type Result } from '../result';
import { jsonObjectSchema } from '../xiaozhi/common-schemas';
import type { McpReply } from './model';
import type { ReplyReadError } from './tools-list-page';

export const initializeInfoSchema = z.looseObject({
  protocolVersion: z.string().optional(),
  capabilities: jsonObjectSchema.optional(),
  serverInfo: z.looseObject({ name: z.string(), version: z.string() }).optional(),
  /** ListenAI only. */
  instructions: z.string().optional(),
});
export type InitializeInfo = z.infer<typeof initializeInfoSchema>;

/** An initialize answer: serverInfo (board name and firmware version on xiaozhi), protocolVersion, instructions. */
export function readInitializeInfo(reply: McpReply): Result<InitializeInfo, ReplyReadError> {
  if (reply.outcome.kind === 'error') {
    return err({ kind: 'device_error', message: reply.outcome.error.message });
  }
  const info = initializeInfoSchema.safeParse(reply.outcome.result);
  return info.success
    ? ok(info.data)
    : err({ kind: 'malformed_result', message: 'not an initialize result' });
}
