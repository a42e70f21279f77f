import { z } from 'zod';
import { CALL_STATES, CAMPAIGN_STATES, VERDICTS } from './vocabulary';

// GET /events: change notices for live views, one server-sent event per notice, named by its `type`. Best
// effort (Redis pub/sub behind it): a reader that misses one re-reads the row; the database is the record.
// The services publish libs/domain's platformEventSchema; platform-events.spec.ts checks the two agree.

export const presenceEventSchema = z.strictObject({
  type: z.literal('presence'),
  deviceId: z.string(),
  state: z.enum(['online', 'offline']),
  connectionId: z.string(),
  reason: z.string().optional(),
  at: z.string(),
});

export const callEventSchema = z.strictObject({
  type: z.literal('call'),
  callId: z.string(),
  deviceId: z.string(),
  tool: z.string(),
  state: z.enum(CALL_STATES),
  verdict: z.enum(VERDICTS).optional(),
  at: z.string(),
});

export const approvalEventSchema = z.strictObject({
  type: z.literal('approval'),
  approvalId: z.string(),
  callId: z.string().optional(),
  campaignId: z.string().optional(),
  // An approval closed with its call (cancelled, void) is told by the call's own event, not by one of its own.
  state: z.enum(['pending', 'approved', 'rejected', 'expired']),
  at: z.string(),
});

export const campaignEventSchema = z.strictObject({
  type: z.literal('campaign'),
  campaignId: z.string(),
  state: z.enum(CAMPAIGN_STATES),
  counts: z.record(z.string(), z.int()).optional(),
  /** A phased rollout's gate: how the phase ended (a failed gate pauses the campaign until a person decides). */
  phase: z
    .strictObject({
      index: z.int(),
      name: z.string(),
      outcome: z.enum(['passed', 'failed', 'continued']),
      detail: z.string(),
    })
    .optional(),
  at: z.string(),
});

export const catalogEventSchema = z.strictObject({
  type: z.literal('catalog'),
  deviceId: z.string(),
  versionId: z.string(),
  version: z.int(),
  at: z.string(),
});

export const voiceTurnEventSchema = z.strictObject({
  type: z.literal('voice_turn'),
  turnId: z.string(),
  deviceId: z.string(),
  state: z.string(),
  at: z.string(),
});

export const platformEventSchema = z.discriminatedUnion('type', [
  presenceEventSchema,
  callEventSchema,
  approvalEventSchema,
  campaignEventSchema,
  catalogEventSchema,
  voiceTurnEventSchema,
]);
export type PlatformEvent = z.infer<typeof platformEventSchema>;
export type EventType = PlatformEvent['type'];
export type EventOf<T extends EventType> = Extract<PlatformEvent, { type: T }>;

/** The SSE event names the stream uses: one per notice type. */
export const EVENT_TYPES: EventType[] = platformEventSchema.options.map((o) => o.shape.type.value);
