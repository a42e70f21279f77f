import { callByIdempotencyKey, createCall, type Database } from '@fleet/db';
import type { DecisionPayload } from '@fleet/domain';
import type { RunFirst } from './preflight';
import type { CallRecord } from './call-record';

export interface PrerequisitePorts {
  calls: { db: Database };
}

/**
 * A prerequisite the ordering rules run first is a call of its own (origin `system`, linked to the call it serves,
 * DESIGN §1), created through the one call creation, idempotently per parent and rule, and run inline in the
 * device's lane. Returns the call as created (or as an earlier attempt left it).
 */
export async function createPrerequisite(
  ports: PrerequisitePorts,
  parent: CallRecord,
  need: RunFirst,
): Promise<CallRecord> {
  const key = `prerequisite:${parent.id}:${need.rule.requires}`;
  const created = await createCall(ports.calls.db, {
    id: crypto.randomUUID(),
    device_id: parent.deviceId,
    partition: parent.partition,
    tool: need.rule.requires,
    arguments: {},
    origin: 'system',
    reason: `ordering rule: ${need.rule.tool} needs a fresh ${need.rule.requires}`,
    parent_call_id: parent.id,
    idempotency_key: key,
    deliveryDeadlineMs: Math.max(0, parent.deadlineAt.getTime() - Date.now()),
    reply_timeout_ms: parent.replyTimeoutMs,
  });
  return created ?? (await callByIdempotencyKey(ports.calls.db, key))!;
}

export function priorStateOf(
  call: CallRecord,
  result: unknown,
  at: Date,
): NonNullable<DecisionPayload['priorState']> {
  return { callId: call.id, tool: call.tool, result, at: at.toISOString() };
}
