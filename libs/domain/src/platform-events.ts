import { z } from 'zod';
import { CALL_STATES } from './calls';
import { CAMPAIGN_STATES } from './campaigns';
import { VERDICTS } from './verdicts';

// Change notices for live views (SSE in the API, the console). Best effort (Redis pub/sub): a reader that
// misses one re-reads the row; the database is the record.
export const PLATFORM_EVENTS_CHANNEL = 'fleet:events';

export const platformEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('presence'),
    deviceId: z.string(),
    state: z.enum(['online', 'offline']),
    connectionId: z.string(),
    reason: z.string().optional(),
    at: z.string(),
  }),
  z.object({
    type: z.literal('call'),
    callId: z.string(),
    deviceId: z.string(),
    tool: z.string(),
    state: z.enum(CALL_STATES),
    verdict: z.enum(VERDICTS).optional(),
    at: z.string(),
  }),
  z.object({
    type: z.literal('approval'),
    approvalId: z.string(),
    callId: z.string().optional(),
    campaignId: z.string().optional(),
    state: z.enum(['pending', 'approved', 'rejected', 'expired']),
    at: z.string(),
  }),
  z.object({
    type: z.literal('campaign'),
    campaignId: z.string(),
    state: z.enum(CAMPAIGN_STATES),
    counts: z.record(z.string(), z.int()).optional(),
    /** A phased rollout's gate: how the phase ended (a failed gate pauses the campaign until a person decides). */
    phase: z
      .object({
        index: z.int(),
        name: z.string(),
        outcome: z.enum(['passed', 'failed', 'continued']),
        detail: z.string(),
      })
      .optional(),
    at: z.string(),
  }),
  z.object({
    type: z.literal('catalog'),
    deviceId: z.string(),
    versionId: z.string(),
    version: z.int(),
    at: z.string(),
  }),
  z.object({
    type: z.literal('voice_turn'),
    turnId: z.string(),
    deviceId: z.string(),
    state: z.string(),
    at: z.string(),
  }),
]);
export type PlatformEvent = z.infer<typeof platformEventSchema>;

/**
 * Webhook event names (DESIGN §3: an approval waits, a campaign pauses or aborts, a phase's gate fails, devices
 * drop offline in numbers;
 * §5: a device came back older than a verified upgrade left it).
 */
export const WEBHOOK_EVENTS = [
  'approval.waiting',
  'campaign.paused',
  'campaign.aborted',
  'campaign.gate_failed',
  'fleet.offline_surge',
  'upgrade.regressed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
