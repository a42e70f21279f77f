import { z } from 'zod';
import {
  CAMPAIGN_STATES,
  CAMPAIGN_TARGET_STATES,
  campaignActionSchema,
  campaignSelectorSchema,
} from '@fleet/domain';
import { reasonText } from '../http/common-schemas';
import { cursorParam, limitParam } from '../http/cursor';

export { campaignSpecSchema as createCampaignBody, type CampaignSpec } from '@fleet/domain';

export const previewBody = z.strictObject({
  selector: campaignSelectorSchema,
  action: campaignActionSchema
    .optional()
    .describe('with an action, the preview also says whether approval is needed'),
});
export type PreviewBody = z.infer<typeof previewBody>;

export const previewView = z.object({
  matched: z.int().describe('active devices the selector matches now'),
  online: z.int(),
  byBoard: z.array(z.object({ board: z.string().nullable(), devices: z.int() })),
  byFirmware: z.array(z.object({ firmware: z.string().nullable(), devices: z.int() })),
  byDialect: z.array(z.object({ dialect: z.string(), devices: z.int() })),
  sample: z.array(z.string()).describe('the first 20 matched device ids'),
  needsApproval: z.boolean().optional(),
  willSkip: z
    .int()
    .optional()
    .describe('firmware: devices whose board it does not suit, or that already run it'),
});
export type PreviewView = z.infer<typeof previewView>;

export const campaignListQuery = z.strictObject({
  state: z.enum(CAMPAIGN_STATES).optional(),
  limit: limitParam(50, 200),
  cursor: cursorParam.optional(),
});

export const targetListQuery = z.strictObject({
  state: z.enum(CAMPAIGN_TARGET_STATES).optional(),
  limit: limitParam(100, 1000),
  cursor: cursorParam.optional(),
});

export const transitionBody = z.strictObject({ reason: reasonText.optional() }).optional();
