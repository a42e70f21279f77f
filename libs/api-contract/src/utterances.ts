import { z } from 'zod';
import { instant } from './common';
import { CALL_STATES, VERDICTS } from './vocabulary';

/** POST /devices/:id/utterances. */
export const voiceTurnStartedSchema = z.strictObject({ id: z.uuid(), state: z.string() });

/** GET /utterances/:id: transcript (unless retention deleted it), tool calls with verdicts, reply. */
export const voiceTurnSchema = z.strictObject({
  id: z.uuid(),
  deviceId: z.string(),
  source: z.string(),
  state: z.string(),
  language: z.string().nullable(),
  transcriptHash: z.string().nullable(),
  transcript: z.string().nullable(),
  toolCalls: z.unknown(),
  reply: z.string().nullable(),
  replyMode: z.string().nullable(),
  timings: z.unknown(),
  error: z.string().nullable(),
  createdAt: instant,
  finishedAt: instant.nullable(),
  calls: z.array(
    z.strictObject({
      id: z.uuid(),
      tool: z.string(),
      state: z.enum(CALL_STATES),
      verdict: z.enum(VERDICTS).nullable(),
    }),
  ),
});
export type VoiceTurn = z.infer<typeof voiceTurnSchema>;
