import { sql, type Database, type DB } from '@fleet/db';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';

type Which = (eb: ExpressionBuilder<DB, 'connection'>) => Expression<SqlBool>;

export const BROKER_KIND = 'broker';

/** A connection row closed for a replica that is gone, as its presence event needs it. */
export interface ClosedConnection {
  connectionId: string;
  mac: string;
  /** The connection's Client-Id hash (DESIGN §3: never the Client-Id itself). */
  clientIdHash: string;
  brokerId: string;
  keepalive: number;
}

/**
 * Broker replicas' heartbeats (`service_instance`, kind `broker`) and the connection rows of replicas that
 * stopped beating. Closing them takes their devices offline unless the device holds a newer connection
 * already (it reconnected through another replica): the device row follows only the connection it names.
 */
export class ReplicaLivenessRepository {
  constructor(
    private readonly db: Database,
    private readonly brokerId: string,
  ) {}

  async beat(): Promise<void> {
    await this.db
      .insertInto('service_instance')
      .values({ id: this.brokerId, kind: BROKER_KIND, heartbeat_at: sql<Date>`now()` })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: sql<Date>`now()` }))
      .execute();
  }

  async leave(): Promise<void> {
    await this.db
      .deleteFrom('service_instance')
      .where('id', '=', this.brokerId)
      .where('kind', '=', BROKER_KIND)
      .execute();
  }

  /** This replica's own rows from before it started (a restart under the same BROKER_ID after a SIGKILL). */
  closeOwnEarlier(startedAt: Date): Promise<ClosedConnection[]> {
    return this.close(
      (eb) => eb.and([eb('broker_id', '=', this.brokerId), eb('opened_at', '<', startedAt)]),
      'broker_restarted',
    );
  }

  /** The open rows of every other replica whose heartbeat is older than `ttlMs` (or that never beat). */
  closeOfDeadReplicas(ttlMs: number): Promise<ClosedConnection[]> {
    const live = this.db
      .selectFrom('service_instance')
      .select('id')
      .where('kind', '=', BROKER_KIND)
      .where('heartbeat_at', '>', sql<Date>`now() - make_interval(secs => ${ttlMs / 1000})`);
    return this.close(
      (eb) => eb.and([eb('broker_id', '<>', this.brokerId), eb('broker_id', 'not in', live)]),
      'broker_lost',
    );
  }

  private async close(which: Which, reason: 'broker_lost' | 'broker_restarted'): Promise<ClosedConnection[]> {
    return this.db.transaction().execute(async (tx) => {
      const closed = await tx
        .updateTable('connection')
        .set({ closed_at: sql<Date>`now()`, close_reason: reason })
        .where('closed_at', 'is', null)
        .where(which)
        .returning(['id', 'device_id', 'client_id', 'broker_id', 'keepalive'])
        .execute();
      if (closed.length === 0) return [];
      await tx
        .updateTable('device')
        .set({ online: false, last_seen_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
        .where(
          'connection_id',
          'in',
          closed.map((c) => c.id),
        )
        .where('online', '=', true)
        .execute();
      return closed.map((c) => ({
        connectionId: c.id,
        mac: c.device_id,
        clientIdHash: c.client_id,
        brokerId: c.broker_id,
        keepalive: c.keepalive,
      }));
    });
  }
}
