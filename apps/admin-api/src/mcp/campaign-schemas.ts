import { z } from 'zod';
import {
  CAMPAIGN_STATES,
  campaignAbortRuleSchema,
  campaignRolloutSchema,
  campaignSelectorSchema,
  maintenanceWindowSchema,
} from '@fleet/domain';

// run_campaign's input and what its task comes to. An agent's campaign is one ordinary tool call on many devices,
// rolled out more carefully than the REST defaults unless it says otherwise: one device first, then doubling.

/** The rollout an agent's campaign gets when it names none: a canary of one, then waves of 2, 4, 8, 10. */
export const AGENT_ROLLOUT = { batchSize: 10, maxInFlight: 10, ramp: { initialBatchSize: 1, factor: 2 } };
/** Stop once more than a tenth of at least 3 finished devices failed. */
export const AGENT_ABORT_RULE = { failureRate: 0.1, minDevices: 3 };

export const runCampaignInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('shown in the console (default: the tool and when)'),
  selector: campaignSelectorSchema.describe(
    'which devices: all criteria must match (deviceIds, board, firmware, groups by name, tags, online, dialect). ' +
      'A key bounded to device groups reaches only their devices: without `groups`, its own groups are used',
  ),
  tool: z
    .string()
    .min(1)
    .max(200)
    .describe('the tool to call on every device, as list_device_tools names it'),
  arguments: z
    .record(z.string(), z.unknown())
    .default({})
    .describe(
      "the tool's arguments, the same for every device; checked against each device's own inputSchema",
    ),
  rollout: campaignRolloutSchema
    .optional()
    .describe(
      'batchSize, maxInFlight, ratePerMinute, ramp (default: one device first, then 2, 4, 8, 10 at a time)',
    ),
  abortRule: campaignAbortRuleSchema
    .optional()
    .describe(
      'stop when more than failureRate of at least minDevices finished ones failed (default 0.1 of 3)',
    ),
  windows: z
    .array(maintenanceWindowSchema)
    .max(14)
    .optional()
    .describe("when devices may be started, in each device group's time zone"),
  deviceTimeoutS: z
    .int()
    .min(10)
    .max(86_400)
    .default(600)
    .describe('how long one device may take to a verdict'),
  idempotencyKey: z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'printable ASCII without spaces, at most 200 characters')
    .optional()
    .describe('a retry with the same key returns the first campaign instead of starting another'),
});
export type RunCampaignInput = z.infer<typeof runCampaignInput>;

export const campaignOutcome = z.object({
  taskId: z.string().describe('the task this campaign is: tasks/get, tasks/result and tasks/cancel take it'),
  campaignId: z.string(),
  name: z.string(),
  tool: z.string(),
  state: z.enum(CAMPAIGN_STATES),
  meaning: z.string().describe('what the state lets you conclude'),
  reason: z.string().nullable().describe('why it stopped or was cancelled, when it was'),
  progress: z
    .record(z.string(), z.int())
    .describe(
      "devices by their state in the campaign (total; verified means each device's effect was observed)",
    ),
  page: z.string().describe("the console's page for the campaign, where a second person approves it"),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type CampaignOutcome = z.infer<typeof campaignOutcome>;
