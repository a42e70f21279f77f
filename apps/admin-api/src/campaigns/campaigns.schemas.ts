import { z } from 'zod';
import {
  CAMPAIGN_STATES,
  CAMPAIGN_TARGET_STATES,
  campaignActionSchema,
  campaignSelectorSchema,
} from '@fleet/domain';
import { reasonText } from '../http/common-schemas';
import { cursorKey, cursorOf, limitParam } from '../http/cursor';

export { campaignSpecSchema as createCampaignBody, type CampaignSpec } from '@fleet/domain';

export const previewBody = z.strictObject({
  selector: campaignSelectorSchema,
  action: campaignActionSchema
    .optional()
    .describe('with an action, the preview also says whether approval is needed'),
});
export type PreviewBody = z.infer<typeof previewBody>;

/** Campaigns, newest first: when each was created, then its id. */
export const campaignCursor = cursorOf(cursorKey.instant, cursorKey.uuid);
/** A campaign's targets, by device. */
export const targetCursor = cursorOf(cursorKey.mac);

export const campaignListQuery = z.strictObject({
  state: z.enum(CAMPAIGN_STATES).optional(),
  limit: limitParam(50, 200),
  cursor: campaignCursor.param.optional(),
});

export const targetListQuery = z.strictObject({
  state: z.enum(CAMPAIGN_TARGET_STATES).optional(),
  limit: limitParam(100, 1000),
  cursor: targetCursor.param.optional(),
});

export const transitionBody = z.strictObject({ reason: reasonText.optional() }).optional();

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export { previewSchema as previewView, type Preview as PreviewView } from '@fleet/api-contract';
