import type { QueryResult, QueryResultRow } from 'pg';
import type { Verdict } from '@fleet/domain';
import type { Database, Row } from '../../client/kysely';

type WaitingState = 'queued' | 'waiting_for_device' | 'awaiting_approval' | 'verifying';

/** A pg pool or a checked-out connection (the evidence batch's, inside its transaction). */
export interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/**
 * Every write of a call's state (DESIGN §1: one owner): the orchestrator's runner through its commit queue, and
 * an operator's cancellation request. Each is one guarded UPDATE; false means the row had moved on meanwhile.
 * The runner's four are fixed statements in plain pg, like the evidence insert they commit with: they run once or
 * twice per call on the hot path, where building each through Kysely (and a Kysely per batch connection) cost
 * more orchestrator CPU than the statement itself (docs/BENCHMARKS.md §11). The operator's cancel stays on Kysely.
 */
export const callStateRepository = {
  /** The verdict, once (the DB triggers refuse to change a sealed call; DESIGN §6). */
  async seal(
    db: Queryable,
    id: string,
    seal: { verdict: Verdict; reason: string; result: unknown; sealedAt: Date },
  ): Promise<boolean> {
    const r = await db.query(
      `UPDATE call SET state = 'finished', verdict = $2, verdict_reason = $3, result = $4, sealed_at = $5
        WHERE id = $1 AND verdict IS NULL`,
      [
        id,
        seal.verdict,
        seal.reason,
        seal.result === undefined ? null : JSON.stringify(seal.result),
        seal.sealedAt,
      ],
    );
    return (r.rowCount ?? 0) > 0;
  },

  /** A waiting state (or `verifying` with the effect deadline), unless cancelled or sealed meanwhile. */
  async park(db: Queryable, id: string, state: WaitingState, effectDeadlineAt?: Date): Promise<boolean> {
    const r = await db.query(
      `UPDATE call SET state = $2, effect_deadline_at = coalesce($3, effect_deadline_at)
        WHERE id = $1 AND verdict IS NULL AND cancelled_by IS NULL`,
      [id, state, effectDeadlineAt ?? null],
    );
    return (r.rowCount ?? 0) > 0;
  },

  /**
   * The "sending" row, written before anything is published (DESIGN §3): once committed the call can never be
   * sent again by anyone, nor cancelled.
   */
  async markSending(
    db: Queryable,
    id: string,
    sending: { jsonrpcId: number | null; connectionId: string | null; catalogVersionId: string | null },
  ): Promise<Date | undefined> {
    const { rows } = await db.query<Pick<Row<'call'>, 'sent_at'>>(
      `UPDATE call SET state = 'sending', jsonrpc_id = $2, connection_id = $3, catalog_version_id = $4, sent_at = now()
        WHERE id = $1 AND verdict IS NULL AND cancelled_by IS NULL
          AND state IN ('queued', 'waiting_for_device', 'awaiting_approval')
        RETURNING sent_at`,
      [id, sending.jsonrpcId, sending.connectionId, sending.catalogVersionId],
    );
    return rows[0]?.sent_at ?? undefined;
  },

  /** The request has left for the device (the contract's `sent`). */
  async markSent(db: Queryable, id: string): Promise<boolean> {
    const r = await db.query(
      `UPDATE call SET state = 'sent' WHERE id = $1 AND state = 'sending' AND verdict IS NULL`,
      [id],
    );
    return (r.rowCount ?? 0) > 0;
  },

  /**
   * An operator's cancellation of a call not yet sent: one statement, so it cannot race the move to `sending`
   * (whichever commits first wins). The orchestrator then seals it `cancelled`.
   */
  async cancel(
    db: Database,
    id: string,
    operatorId: string,
    reason: string,
  ): Promise<{ deviceId: string } | undefined> {
    return db
      .updateTable('call')
      .set({ state: 'finished', cancelled_by: operatorId, cancel_reason: reason })
      .where('id', '=', id)
      .where('state', 'in', ['queued', 'awaiting_approval', 'waiting_for_device'])
      .where('verdict', 'is', null)
      .returning('device_id as deviceId')
      .executeTakeFirst();
  },
};
