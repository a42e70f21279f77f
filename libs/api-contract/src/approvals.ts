import { z } from 'zod';
import type { CampaignSelector } from '@fleet/domain';
import { instant, page, personSchema } from './common';
import { APPROVAL_STATES, CALL_STATES, CAMPAIGN_STATES, VERDICTS } from './vocabulary';

/** GET /approvals/:id and each item of GET /approvals. */
export const approvalSchema = z.strictObject({
  id: z.uuid(),
  state: z.enum(APPROVAL_STATES),
  effectiveState: z.enum(APPROVAL_STATES).describe('`expired` for a pending approval past its expiry'),
  callId: z.uuid().nullable(),
  campaignId: z.uuid().nullable(),
  deviceId: z.string().nullable(),
  tool: z.string(),
  arguments: z.unknown(),
  argumentsHash: z.string(),
  requestedBy: personSchema,
  decidedBy: personSchema.nullable(),
  decidedAt: instant.nullable(),
  reason: z.string().nullable(),
  expiresAt: instant,
  createdAt: instant,
  preflight: z
    .unknown()
    .describe("what the orchestrator's pre-flight found before a person was asked (DESIGN §4)"),
  catalogVersionId: z.string().nullable().describe('the catalog version the approval is bound to'),
  call: z
    .strictObject({
      id: z.uuid(),
      deviceId: z.string(),
      tool: z.string(),
      reason: z.string().nullable(),
      state: z.enum(CALL_STATES),
      verdict: z.enum(VERDICTS).nullable(),
    })
    .nullable(),
  campaign: z
    .strictObject({
      id: z.uuid(),
      name: z.string(),
      state: z.enum(CAMPAIGN_STATES),
      selector: z.custom<CampaignSelector>((v) => typeof v === 'object' && v !== null),
    })
    .nullable(),
});
export type Approval = z.infer<typeof approvalSchema>;
export const approvalListSchema = page(approvalSchema);

/** POST /approvals/:id/{approve,reject}. */
export const decisionSchema = z.strictObject({
  id: z.uuid(),
  state: z.enum(['approved', 'rejected']),
  callId: z.uuid().nullable(),
  campaignId: z.uuid().nullable(),
});
export type Decision = z.infer<typeof decisionSchema>;
