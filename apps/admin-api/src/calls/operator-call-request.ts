import { CALL_REQUEST_DEFAULTS, type ValidCallRequest } from '@fleet/platform-client';
import type { Actor } from '../http/actor';
import type { CreateCallBody } from './calls.schemas';

/**
 * The call an operator's POST asks for, built only from what the request already validated: the route's params
 * and body schemas (within callRequestSchema's bounds: a tool of 1–200 characters, a reason of at most 2,000, a
 * deadline of 1 s to 7 days), the Idempotency-Key header (1–255 visible characters) and the authenticated actor.
 * So CallRequests takes it without a second zod pass (calls.schemas' spec checks the bounds agree).
 */
export function operatorCallRequest(
  actor: Actor,
  deviceId: string,
  body: CreateCallBody,
  idempotencyKey: string | undefined,
  maxApprovalTtlS: number,
): ValidCallRequest {
  return {
    deviceId,
    tool: body.tool,
    arguments: body.arguments,
    origin: 'operator',
    operatorId: actor.operatorId,
    ...(actor.apiKeyId ? { apiKeyId: actor.apiKeyId } : {}),
    ...(body.reason ? { reason: body.reason } : {}),
    // Scoped to the person, as the API's own idempotency records are: two people's keys never collide.
    ...(idempotencyKey ? { idempotencyKey: `operator:${actor.operatorId}:${idempotencyKey}` } : {}),
    deliveryDeadlineMs: body.deliveryDeadlineS
      ? body.deliveryDeadlineS * 1000
      : CALL_REQUEST_DEFAULTS.deliveryDeadlineMs,
    replyTimeoutMs: CALL_REQUEST_DEFAULTS.replyTimeoutMs,
    // A per-call TTL, never longer than the platform allows (CALL_APPROVAL_TTL_S).
    approvalTtlMs: Math.min(body.approvalTtlS ?? Infinity, maxApprovalTtlS) * 1000,
  };
}
