import { z } from 'zod';
import type {
  CampaignAbortRule,
  CampaignAction,
  CampaignPhase,
  CampaignRollout,
  CampaignSelector,
  CampaignSpec,
  MaintenanceWindow,
  PhaseLogEntry,
} from '@fleet/domain';
import { instant, page } from './common';
import { CAMPAIGN_STATES, CAMPAIGN_TARGET_STATES } from './vocabulary';

// The spec's parts were validated by the domain's schemas when the campaign was created; the answer carries
// them as stored and this contract types them with the domain's types (its schemas stay out of the console).
const stored = <T>() => z.custom<T>((v) => typeof v === 'object' && v !== null, 'a JSON object');

/** What POST /campaigns takes (libs/domain's campaignSpecSchema validates it). */
export type {
  CampaignAbortRule,
  CampaignAction,
  CampaignPhase,
  CampaignRollout,
  CampaignSelector,
  CampaignSpec,
  MaintenanceWindow,
  PhaseLogEntry,
};

/** Each item of GET /campaigns. */
export const campaignSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  createdBy: z.uuid(),
  state: z.enum(CAMPAIGN_STATES),
  selector: stored<CampaignSelector>(),
  action: stored<CampaignAction>(),
  rollout: stored<CampaignRollout>(),
  abortRule: stored<CampaignAbortRule>(),
  windows: z.array(stored<MaintenanceWindow>()).nullable(),
  deviceTimeoutS: z.int(),
  retries: z.int(),
  skipInSession: z.boolean(),
  doneWhen: z
    .enum(['verified', 'verified_or_acknowledged'])
    .describe(
      'which verdicts count as done for a device, for progress and the abort rule alike (an announcement campaign goes by its how instead: an alert once published, speech once verified)',
    ),
  stateReason: z.string().nullable(),
  reapprovalOf: z
    .uuid()
    .nullable()
    .describe(
      'the campaign whose devices, rejected because their tool changed, this one asks approval for again',
    ),
  phases: z
    .array(stored<CampaignPhase>())
    .nullable()
    .describe(
      'a phased rollout: a canary set, then percentages, each with a soak and a gate (null: one rollout)',
    ),
  phaseIndex: z.int().describe('the phase it is in (the number of phases once every gate passed)'),
  phaseLog: z
    .array(stored<PhaseLogEntry>())
    .describe('how each gate ended: passed, failed (the campaign paused), continued by a person'),
  definition: stored<Record<string, unknown>>()
    .nullable()
    .describe('the definition sealed when it started; nothing of it can change afterwards'),
  rollbackOf: z.uuid().nullable().describe('the campaign this one undoes'),
  createdAt: instant,
  startedAt: instant.nullable(),
  finishedAt: instant.nullable(),
  updatedAt: instant,
});
export type Campaign = z.infer<typeof campaignSchema>;
export const campaignListSchema = page(campaignSchema);

/** GET /firmware/:id/campaigns: a release's campaigns, for its page (what each undoes, what undid it). */
export const releaseCampaignSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  state: z.enum(CAMPAIGN_STATES),
  rollbackOf: z.uuid().nullable(),
  rolledBackBy: z.uuid().nullable(),
  createdAt: instant,
});
export const releaseCampaignListSchema = z.strictObject({ items: z.array(releaseCampaignSchema) });
export type ReleaseCampaignList = z.infer<typeof releaseCampaignListSchema>;
export type ReleaseCampaign = z.infer<typeof releaseCampaignSchema>;

/** Per-device states, counted (every state of CAMPAIGN_TARGET_STATES, zero included). */
export const progressSchema = z.strictObject({
  total: z.int(),
  pending: z.int(),
  waiting_for_device: z.int(),
  in_progress: z.int(),
  verified: z.int(),
  acknowledged: z
    .int()
    .describe(
      'devices that said they did it, unverifiable, in a campaign whose doneWhen counts that as done; in an announcement campaign, devices whose alert was published (all an alert can prove)',
    ),
  failed: z.int(),
  skipped: z.int(),
  cancelled: z.int(),
  rejected: z
    .int()
    .describe(
      'devices whose tool changed since the campaign was approved (DESIGN §4); POST /campaigns/:id/reapprove asks again for them',
    ),
} satisfies Record<'total' | (typeof CAMPAIGN_TARGET_STATES)[number], z.ZodInt>);
export type Progress = z.infer<typeof progressSchema>;

/** GET /campaigns/:id, POST /campaigns and every transition. */
export const campaignViewSchema = campaignSchema.extend({
  progress: progressSchema,
  approvalId: z.uuid().nullable(),
  definitionSha256: z
    .string()
    .nullable()
    .describe("SHA-256 of the sealed definition's canonical JSON, cited in each of its calls' reason"),
});
export type CampaignView = z.infer<typeof campaignViewSchema>;

/** Each item of GET /campaigns/:id/targets. */
export const campaignTargetSchema = z.strictObject({
  id: z.uuid(),
  deviceId: z.string(),
  state: z.enum(CAMPAIGN_TARGET_STATES),
  attempts: z.int(),
  callId: z.uuid().nullable(),
  detail: z.string().nullable(),
  deadlineAt: instant.nullable(),
  updatedAt: instant,
});
export type CampaignTarget = z.infer<typeof campaignTargetSchema>;
export const campaignTargetListSchema = page(campaignTargetSchema);

/** POST /campaigns/preview: what a selector matches now. */
export const previewSchema = z.strictObject({
  matched: z.int().describe('active devices the selector matches now'),
  online: z.int(),
  byBoard: z.array(z.strictObject({ board: z.string().nullable(), devices: z.int() })),
  byFirmware: z.array(z.strictObject({ firmware: z.string().nullable(), devices: z.int() })),
  byDialect: z.array(z.strictObject({ dialect: z.string(), devices: z.int() })),
  sample: z.array(z.string()).describe('the first 20 matched device ids'),
  needsApproval: z.boolean().optional(),
  willSkip: z
    .int()
    .optional()
    .describe('firmware: devices whose board it does not suit, or that already run it'),
});
export type Preview = z.infer<typeof previewSchema>;
