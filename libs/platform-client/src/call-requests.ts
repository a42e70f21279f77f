import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Pool } from '@fleet/db';
import { CALL_ORIGINS, partitionOf, type CallOrigin, type CallState } from '@fleet/domain';
import { QueueClient, type Redis } from '@fleet/queues';

/** What any producer (API, voice worker, campaign runner, MCP endpoint) asks of the orchestrator. */
export const callRequestSchema = z.strictObject({
  deviceId: z.string().min(1),
  tool: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()).default({}),
  origin: z.enum(CALL_ORIGINS),
  reason: z.string().max(2000).optional(),
  operatorId: z.uuid().optional(),
  apiKeyId: z.uuid().optional(),
  voiceTurnId: z.uuid().optional(),
  campaignId: z.uuid().optional(),
  agentId: z.string().max(200).optional(),
  parentCallId: z.uuid().optional(),
  /** A retry with the same key returns the first call instead of creating another (DESIGN §3). */
  idempotencyKey: z.string().min(1).max(300).optional(),
  /** Sent by then or `undelivered` (the device may be offline or rebooting meanwhile). */
  deliveryDeadlineMs: z
    .int()
    .min(1_000)
    .max(7 * 24 * 3600_000)
    .default(10 * 60_000),
  replyTimeoutMs: z.int().min(100).max(600_000).default(10_000),
  traceparent: z.string().optional(),
});
export type CallRequest = z.input<typeof callRequestSchema>;

export type CallRequestResult =
  | { ok: true; callId: string; created: boolean; state: CallState }
  | { ok: false; error: 'unknown_device' | 'idempotency_conflict'; message: string };

/**
 * Creates a call row and wakes its partition's owner. Idempotency lives in Postgres (a unique key), not in
 * BullMQ job ids, which vanish after completion: a producer that retries after a timeout gets the same call.
 */
export class CallRequests {
  private readonly queues = new Map<number, QueueClient<'calls'>>();

  constructor(
    private readonly pool: Pool,
    private readonly redis: Redis,
    private readonly queuePrefix: string,
  ) {}

  async request(input: CallRequest): Promise<CallRequestResult> {
    const r = callRequestSchema.parse(input);
    const partition = partitionOf(r.deviceId);
    const id = randomUUID();
    let inserted;
    try {
      inserted = await this.pool.query<{ id: string; state: CallState }>(
        `INSERT INTO call (id, device_id, partition, tool, arguments, origin, reason, operator_id, api_key_id, voice_turn_id,
                           campaign_id, agent_id, parent_call_id, idempotency_key, traceparent, deadline_at, reply_timeout_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, now() + make_interval(secs => $16::double precision / 1000), $17)
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING id, state`,
        [
          id,
          r.deviceId,
          partition,
          r.tool,
          JSON.stringify(r.arguments),
          r.origin,
          r.reason ?? null,
          r.operatorId ?? null,
          r.apiKeyId ?? null,
          r.voiceTurnId ?? null,
          r.campaignId ?? null,
          r.agentId ?? null,
          r.parentCallId ?? null,
          r.idempotencyKey ?? null,
          r.traceparent ?? null,
          r.deliveryDeadlineMs,
          r.replyTimeoutMs,
        ],
      );
    } catch (err) {
      if ((err as { code?: string }).code === '23503') {
        return { ok: false, error: 'unknown_device', message: `no device ${r.deviceId}` };
      }
      throw err;
    }
    const row = inserted.rows[0];
    if (row) {
      await this.wake(row.id, r.deviceId, r.traceparent);
      return { ok: true, callId: row.id, created: true, state: row.state };
    }
    return this.existing(r);
  }

  /** Wakes the owner of the call's partition (after an approval, a cancel, or to retry a lost wake-up). */
  async wake(callId: string, deviceId: string, traceparent?: string): Promise<void> {
    const partition = partitionOf(deviceId);
    let queue = this.queues.get(partition);
    if (!queue) {
      queue = new QueueClient('calls', this.redis, this.queuePrefix, partition);
      this.queues.set(partition, queue);
    }
    await queue.add('call.run', { callId, deviceId, ...(traceparent ? { traceparent } : {}) });
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }

  private async existing(r: z.output<typeof callRequestSchema>): Promise<CallRequestResult> {
    const { rows } = await this.pool.query<{
      id: string;
      state: CallState;
      device_id: string;
      tool: string;
      arguments: unknown;
    }>('SELECT id, state, device_id, tool, arguments FROM call WHERE idempotency_key = $1', [
      r.idempotencyKey,
    ]);
    const call = rows[0]!;
    const same =
      call.device_id === r.deviceId &&
      call.tool === r.tool &&
      JSON.stringify(call.arguments) === JSON.stringify(r.arguments);
    if (!same) {
      return {
        ok: false,
        error: 'idempotency_conflict',
        message: 'this Idempotency-Key was used for a different request',
      };
    }
    return { ok: true, callId: call.id, created: false, state: call.state };
  }
}

export { type CallOrigin };
