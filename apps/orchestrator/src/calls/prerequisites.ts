import { randomUUID } from 'node:crypto';
import type { DecisionPayload } from '@fleet/domain';
import type { OrderingNeed } from '../policy/ordering';
import type { CallRecord } from './call-record';
import type { PipelineContext } from './pipeline-context';

/**
 * A prerequisite the ordering rules run first is a call of its own (origin `system`, linked to the call it serves,
 * DESIGN §1). It is created here, idempotently per parent and rule, and run inline in the device's lane.
 */
export async function createPrerequisite(
  ctx: PipelineContext,
  parent: CallRecord,
  need: Extract<OrderingNeed, { kind: 'run_first' }>,
): Promise<string> {
  const key = `prerequisite:${parent.id}:${need.rule.requires}`;
  const { rows } = await ctx.calls.pool.query<{ id: string }>(
    `WITH created AS (
       INSERT INTO call (id, device_id, partition, tool, arguments, origin, reason, parent_call_id, idempotency_key,
                         deadline_at, reply_timeout_ms, traceparent)
       VALUES ($1, $2, $3, $4, '{}', 'system', $5, $6, $7, $8, $9, $10)
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING id)
     SELECT id FROM created UNION ALL SELECT id FROM call WHERE idempotency_key = $7`,
    [
      randomUUID(),
      parent.deviceId,
      parent.partition,
      need.rule.requires,
      `ordering rule: ${need.rule.tool} needs a fresh ${need.rule.requires}`,
      parent.id,
      key,
      parent.deadlineAt,
      parent.replyTimeoutMs,
      null,
    ],
  );
  return rows[0]!.id;
}

export function priorStateOf(
  call: CallRecord,
  result: unknown,
  at: Date,
): NonNullable<DecisionPayload['priorState']> {
  return { callId: call.id, tool: call.tool, result, at: at.toISOString() };
}
