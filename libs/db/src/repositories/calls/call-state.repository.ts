import type { Verdict } from '@fleet/domain';
import type { Database } from '../../client/kysely';

type WaitingState = 'queued' | 'waiting_for_device' | 'awaiting_approval' | 'verifying';

/**
 * Every write of a call's state (DESIGN §1: one owner): the orchestrator's runner through its commit queue, and
 * an operator's cancellation request. Each is one guarded UPDATE; false means the row had moved on meanwhile.
 */
export const callStateRepository = {
  /** The verdict, once (the DB triggers refuse to change a sealed call; DESIGN §6). */
  async seal(
    db: Database,
    id: string,
    seal: { verdict: Verdict; reason: string; result: unknown; sealedAt: Date },
  ): Promise<boolean> {
    const r = await db
      .updateTable('call')
      .set({
        state: 'finished',
        verdict: seal.verdict,
        verdict_reason: seal.reason,
        result: seal.result === undefined ? null : JSON.stringify(seal.result),
        sealed_at: seal.sealedAt,
      })
      .where('id', '=', id)
      .where('verdict', 'is', null)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  },

  /** A waiting state (or `verifying` with the effect deadline), unless cancelled or sealed meanwhile. */
  async park(db: Database, id: string, state: WaitingState, effectDeadlineAt?: Date): Promise<boolean> {
    const r = await db
      .updateTable('call')
      .set((eb) => ({
        state,
        effect_deadline_at: effectDeadlineAt ?? eb.ref('effect_deadline_at'),
      }))
      .where('id', '=', id)
      .where('verdict', 'is', null)
      .where('cancelled_by', 'is', null)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  },

  /**
   * The "sending" row, written before anything is published (DESIGN §3): once committed the call can never be
   * sent again by anyone, nor cancelled.
   */
  async markSending(
    db: Database,
    id: string,
    sending: { jsonrpcId: number | null; connectionId: string | null; catalogVersionId: string | null },
  ): Promise<Date | undefined> {
    const row = await db
      .updateTable('call')
      .set((eb) => ({
        state: 'sending',
        jsonrpc_id: sending.jsonrpcId,
        connection_id: sending.connectionId,
        catalog_version_id: sending.catalogVersionId,
        sent_at: eb.fn('now'),
      }))
      .where('id', '=', id)
      .where('verdict', 'is', null)
      .where('cancelled_by', 'is', null)
      .where('state', 'in', ['queued', 'waiting_for_device', 'awaiting_approval'])
      .returning('sent_at')
      .executeTakeFirst();
    return row?.sent_at ?? undefined;
  },

  /** The request has left for the device (the contract's `sent`). */
  async markSent(db: Database, id: string): Promise<boolean> {
    const r = await db
      .updateTable('call')
      .set({ state: 'sent' })
      .where('id', '=', id)
      .where('state', '=', 'sending')
      .where('verdict', 'is', null)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
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
