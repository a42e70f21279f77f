import { z } from 'zod';
import { instant, jsonObject, page } from './common';
import { evidenceSchema } from './evidence';
import { APPROVAL_STATES, CALL_ORIGINS, CALL_STATES, VERDICTS } from './vocabulary';

export const callSummarySchema = z.strictObject({
  id: z.uuid(),
  deviceId: z.string(),
  tool: z.string(),
  origin: z.enum(CALL_ORIGINS),
  operatorId: z.uuid().nullable(),
  campaignId: z.uuid().nullable(),
  state: z.enum(CALL_STATES),
  verdict: z.enum(VERDICTS).nullable(),
  createdAt: instant,
  sealedAt: instant.nullable(),
});
export type CallSummary = z.infer<typeof callSummarySchema>;

/** GET /calls. */
export const callListSchema = page(callSummarySchema);

/** GET /calls/:id: a call with its five evidence rows and verdict. */
export const callSchema = callSummarySchema.extend({
  arguments: jsonObject,
  reason: z.string().nullable(),
  apiKeyId: z.uuid().nullable(),
  voiceTurnId: z.uuid().nullable(),
  agentId: z.string().nullable(),
  parentCallId: z.uuid().nullable(),
  catalogVersionId: z.string().nullable(),
  verdictReason: z.string().nullable(),
  verdictMeaning: z.string().nullable(),
  jsonrpcId: z.number().nullable(),
  connectionId: z.string().nullable(),
  deadlineAt: instant,
  replyTimeoutMs: z.int(),
  effectDeadlineAt: instant.nullable(),
  sentAt: instant.nullable(),
  result: z.unknown(),
  cancelledBy: z.uuid().nullable(),
  cancelReason: z.string().nullable(),
  approval: z
    .strictObject({
      id: z.uuid(),
      state: z.enum(APPROVAL_STATES),
      requestedBy: z.uuid(),
      decidedBy: z.uuid().nullable(),
      decidedAt: instant.nullable(),
      reason: z.string().nullable(),
      expiresAt: instant,
    })
    .nullable(),
  prerequisites: z.array(
    z.strictObject({
      id: z.uuid(),
      tool: z.string(),
      state: z.enum(CALL_STATES),
      verdict: z.enum(VERDICTS).nullable(),
    }),
  ),
  evidence: evidenceSchema,
  rolledBackLater: z
    .strictObject({
      reachedVersion: z.string(),
      reportedVersion: z.string(),
      reportedOtaLabel: z.string().nullable(),
      bootReportId: z.string().nullable().describe('the boot check-in that reported the older version'),
      detectedAt: instant,
    })
    .nullable()
    .describe('DESIGN §5: a verified upgrade the device later came back from on an older version'),
});
export type Call = z.infer<typeof callSchema>;

/** POST /devices/:id/calls. */
export const callCreatedSchema = z.strictObject({
  id: z.uuid(),
  state: z
    .enum(CALL_STATES)
    .describe(
      '`awaiting_approval` when the tool is user-only and pre-flight passed it (or has not run yet: the device is ' +
        'offline); `finished` when pre-flight refused it',
    ),
  approvalId: z.uuid().optional().describe('the approval pre-flight opened; absent when nobody is asked'),
  verdict: z
    .enum(VERDICTS)
    .optional()
    .describe('set when pre-flight refused the call before anyone was asked (rejected, invalid_arguments)'),
  verdictReason: z.string().optional(),
  note: z
    .string()
    .optional()
    .describe('Set when the call is recorded but the queue was unreachable: it runs once the queue is back'),
});
export type CallCreated = z.infer<typeof callCreatedSchema>;

/** POST /calls/:id/cancel. */
export const callCancelledSchema = z.strictObject({
  id: z.uuid(),
  state: z.literal('finished'),
  cancelledBy: z.uuid(),
});
export type CallCancelled = z.infer<typeof callCancelledSchema>;

/** POST /calls/:id/busy-override: who let a reboot or an upgrade go during a conversation, and why. */
export const busyOverrideSchema = z.strictObject({
  id: z.uuid(),
  overriddenBy: z.uuid(),
  reason: z.string(),
  overriddenAt: instant,
});
export type BusyOverride = z.infer<typeof busyOverrideSchema>;
