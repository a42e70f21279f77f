import { z } from 'zod';
import { campaignPhasesSchema } from './campaign-phases';
import { announcementContentShape } from './announcements';

// What a campaign is asked to do (DESIGN §3): the API validates these, the orchestrator's campaign
// runner executes them. Stored as JSON columns of `campaign`.

/** Devices matching every criterion given (at least one). */
export const campaignSelectorSchema = z
  .strictObject({
    deviceIds: z.array(z.string()).min(1).max(100_000).optional(),
    board: z.string().min(1).optional(),
    firmware: z.string().min(1).optional(),
    groups: z.array(z.string().min(1)).min(1).optional(),
    tags: z.array(z.string().min(1)).min(1).optional(),
    online: z.boolean().optional(),
    /** How the devices speak MCP (the protocol lib's dialects): a campaign may span both, or keep to one. */
    dialect: z.enum(['xiaozhi', 'listenai']).optional(),
  })
  .refine((s) => Object.values(s).some((v) => v !== undefined), 'give at least one criterion');
export type CampaignSelector = z.infer<typeof campaignSelectorSchema>;

export const campaignActionSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('tool'),
    tool: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).default({}),
  }),
  z.strictObject({ kind: z.literal('reboot') }),
  /**
   * A capability rather than a tool ("volume" 30): each device's model profile names its tool and argument
   * (libs/domain capabilities), so one campaign spans families whose tools differ.
   */
  z.strictObject({
    kind: z.literal('capability'),
    capability: z.string().min(1).max(100),
    value: z.union([z.string(), z.number(), z.boolean()]),
  }),
  z.strictObject({
    kind: z.literal('firmware'),
    firmwareId: z.uuid(),
    /** `mcp`: self.upgrade_firmware with the image URL; `ota`: assign it to the OTA answer, then reboot. */
    via: z.enum(['mcp', 'ota']).default('mcp'),
  }),
  /**
   * An announcement to every matched device (libs/domain announcements): each device's is a call of its own
   * through the announcement gate. Done is by `how`, whatever `doneWhen` says: an alert once it was published on
   * the device's connection (all it can prove), speech once it was heard through (`verified`).
   */
  z.strictObject({
    kind: z.literal('announcement'),
    ...announcementContentShape,
  }),
]);
export type CampaignAction = z.infer<typeof campaignActionSchema>;

export const campaignRolloutSchema = z.strictObject({
  /** Devices started per batch; the next batch starts when this one has finished. */
  batchSize: z.int().min(1).max(10_000).default(50),
  /** Devices in progress at once, across batches. */
  maxInFlight: z.int().min(1).max(10_000).default(50),
  /** Optional cap on devices started per minute. */
  ratePerMinute: z.int().min(1).max(1_000_000).optional(),
  /** Optional ramp: the first batch is this size, each next one `factor` times larger up to batchSize. */
  ramp: z.strictObject({ initialBatchSize: z.int().min(1), factor: z.number().min(1).max(10) }).optional(),
});
export type CampaignRollout = z.infer<typeof campaignRolloutSchema>;

export const campaignAbortRuleSchema = z.strictObject({
  /** Abort when more than this share of finished devices failed... */
  failureRate: z.number().min(0).max(1).default(0.1),
  /** ...once at least this many have finished. Offline devices waiting are not failures. */
  minDevices: z.int().min(1).default(10),
});
export type CampaignAbortRule = z.infer<typeof campaignAbortRuleSchema>;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** Start and end in the time zone of the device's group (UTC without a group); end may be past midnight. */
export const maintenanceWindowSchema = z.strictObject({
  days: z
    .array(z.enum(WEEKDAYS))
    .min(1)
    .default([...WEEKDAYS]),
  start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM'),
  end: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM'),
});
export type MaintenanceWindow = z.infer<typeof maintenanceWindowSchema>;

export const campaignSpecSchema = z.strictObject({
  name: z.string().min(1).max(200),
  selector: campaignSelectorSchema,
  action: campaignActionSchema,
  rollout: campaignRolloutSchema.default({ batchSize: 50, maxInFlight: 50 }),
  abortRule: campaignAbortRuleSchema.default({ failureRate: 0.1, minDevices: 10 }),
  windows: z.array(maintenanceWindowSchema).optional(),
  /** How long one device may take from its start to a verified result (an upgrade includes the reboot). */
  deviceTimeoutS: z
    .int()
    .min(10)
    .max(7 * 24 * 3600)
    .default(600),
  retries: z.int().min(0).max(10).default(0),
  /** Leave devices in an open voice session for later (a reboot mid-conversation is rude). */
  skipInSession: z.boolean().default(true),
  /** Which verdicts count as done for a device, for progress and the abort rule alike. */
  doneWhen: z.enum(['verified', 'verified_or_acknowledged']).default('verified'),
  /** A phased rollout: a canary, then percentages, each with a soak and a gate (libs/domain campaign-phases). */
  phases: campaignPhasesSchema.optional(),
});
export type CampaignSpec = z.infer<typeof campaignSpecSchema>;
