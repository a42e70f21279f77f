import { z } from 'zod';
import { CALL_ORIGINS, CALL_STATES, VERDICTS } from '@fleet/domain';
import { macSchema } from '@fleet/protocol';
import { isoInstant, reasonText } from '../http/common-schemas';
import { cursorKey, cursorOf, limitParam } from '../http/cursor';

export const createCallBody = z.strictObject({
  tool: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()).default({}),
  reason: reasonText.optional().describe('why; recorded in the decision evidence and shown to the approver'),
  deliveryDeadlineS: z
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .optional()
    .describe('sent by then or `undelivered` (default 10 minutes)'),
  approvalTtlS: z
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .optional()
    .describe(
      'how long a user-only call waits for approval before it is `expired`; capped by the configured maximum',
    ),
});
export type CreateCallBody = z.infer<typeof createCallBody>;

/** Calls, newest first: when each was created, then its id. */
export const callCursor = cursorOf(cursorKey.instant, cursorKey.uuid);

export const callListQuery = z.strictObject({
  deviceId: macSchema.optional(),
  verdict: z.enum(VERDICTS).optional(),
  tool: z.string().min(1).max(200).optional(),
  origin: z.enum(CALL_ORIGINS).optional(),
  state: z.enum(CALL_STATES).optional(),
  operatorId: z.uuid().optional(),
  campaignId: z.uuid().optional(),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  limit: limitParam(50, 500),
  cursor: callCursor.param.optional(),
});
export type CallListQuery = z.infer<typeof callListQuery>;

export const cancelBody = z.strictObject({ reason: reasonText });

export const busyOverrideBody = z.strictObject({
  reason: reasonText.describe(
    'why it cannot wait for the conversation to end; cited in the decision evidence',
  ),
});

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export {
  callCreatedSchema as callCreatedView,
  type CallCreated as CallCreatedView,
} from '@fleet/api-contract';
