import { z } from 'zod';
import {
  campaignAbortRuleSchema,
  campaignActionSchema,
  campaignPhasesSchema,
  campaignRolloutSchema,
  campaignSelectorSchema,
  campaignSpecSchema,
  maintenanceWindowSchema,
} from '@fleet/domain';
import { reasonText } from '../http/common-schemas';

/** PATCH /campaigns/:id: what a draft may change (each field as POST /campaigns takes it; null clears phases). */
export const campaignEditBody = z
  .strictObject({
    name: z.string().min(1).max(200).optional(),
    selector: campaignSelectorSchema.optional(),
    action: campaignActionSchema.optional(),
    rollout: campaignRolloutSchema.optional(),
    abortRule: campaignAbortRuleSchema.optional(),
    windows: z.array(maintenanceWindowSchema).nullable().optional(),
    deviceTimeoutS: campaignSpecSchema.shape.deviceTimeoutS.unwrap().optional(),
    retries: campaignSpecSchema.shape.retries.unwrap().optional(),
    skipInSession: z.boolean().optional(),
    doneWhen: z.enum(['verified', 'verified_or_acknowledged']).optional(),
    phases: campaignPhasesSchema.nullable().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'change at least one field');
export type CampaignEdit = z.infer<typeof campaignEditBody>;

/** POST /campaigns/:id/continue: a person lets a campaign paused by a failed gate go on, saying why. */
export const continueBody = z.strictObject({ reason: reasonText });

/** POST /campaigns/:id/rollback: back to the version its devices ran before (or to the image named). */
export const rollbackBody = z
  .strictObject({
    firmwareId: z
      .uuid()
      .optional()
      .describe('the image to go back to; by default, the one its devices ran before'),
    reason: reasonText.optional(),
  })
  .optional();
