import type { QueryResult, QueryResultRow } from 'pg';
import type { Database } from '../../client/kysely';

/** A pg pool or a checked-out connection (a batch's, inside its transaction). */
export interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/**
 * Writes of a call's state that are not the runner's batched steps (DESIGN §1: one owner; the runner's steps are
 * call-steps.repository, committed with their evidence by the CommitQueue).
 */
export const callStateRepository = {
  /**
   * The runner's move to `awaiting_approval`, inside the unit that also opens the approval and records what
   * pre-flight found (one transaction), unless the call was cancelled or sealed meanwhile.
   */
  async awaitApproval(db: Queryable, id: string): Promise<boolean> {
    const r = await db.query(
      `UPDATE call SET state = 'awaiting_approval' WHERE id = $1 AND verdict IS NULL AND cancelled_by IS NULL`,
      [id],
    );
    return (r.rowCount ?? 0) > 0;
  },

  /**
   * An operator's cancellation request of a call not yet sent: one statement, so it cannot race the move to
   * `sending` (whichever commits first wins). The orchestrator then seals it `cancelled`.
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
