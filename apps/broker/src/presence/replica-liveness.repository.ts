import { sql, type Database, type DB } from '@fleet/db';
import type { Expression, ExpressionBuilder, QueryCreator, SqlBool } from 'kysely';

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
    await this.beatQuery(this.db).execute();
  }

  /**
   * The heartbeat and the closing of every other replica's open rows whose heartbeat is older than `ttlMs` (or
   * that never beat), in one autocommitted statement: a round trip every beat instead of four (the beat, then
   * BEGIN, the close, COMMIT), and the beat, the rows and their devices commit together. The close cannot see
   * this statement's own beat (one snapshot); it leaves this replica's rows alone anyway.
   */
  async beatAndCloseDead(ttlMs: number): Promise<ClosedConnection[]> {
    const rows = await this.db
      .with('beat', (db) => this.beatQuery(db))
      .with('closed', (db) =>
        db
          .updateTable('connection')
          .set({ closed_at: sql<Date>`now()`, close_reason: 'broker_lost' })
          .where('closed_at', 'is', null)
          .where((eb) => this.ofDeadReplicas(eb, ttlMs))
          .returning(['id', 'device_id', 'client_id', 'broker_id', 'keepalive']),
      )
      .with('offline', (db) =>
        db
          .updateTable('device as d')
          .from('closed as c')
          .set({ online: false, last_seen_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
          // A device row follows only the connection it names; `d.id = c.device_id` lets the join use the
          // primary key, so a beat that closes nothing touches no device.
          .whereRef('d.id', '=', 'c.device_id')
          .whereRef('d.connection_id', '=', 'c.id')
          .where('d.online', '=', true),
      )
      .selectFrom('closed')
      .select(['id', 'device_id', 'client_id', 'broker_id', 'keepalive'])
      .execute();
    return rows.map(toClosed);
  }

  /** Replicas whose heartbeat is younger than `ttlMs` (this one among them once it has beaten). */
  async liveReplicaIds(ttlMs: number): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('service_instance')
      .select('id')
      .where('kind', '=', BROKER_KIND)
      .where('heartbeat_at', '>', sql<Date>`now() - make_interval(secs => ${ttlMs / 1000})`)
      .execute();
    return new Set(rows.map((r) => r.id));
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

  private beatQuery(db: Database | QueryCreator<DB>) {
    return db
      .insertInto('service_instance')
      .values({ id: this.brokerId, kind: BROKER_KIND, heartbeat_at: sql<Date>`now()` })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: sql<Date>`now()` }));
  }

  private ofDeadReplicas(eb: ExpressionBuilder<DB, 'connection'>, ttlMs: number): Expression<SqlBool> {
    const live = eb
      .selectFrom('service_instance')
      .select('id')
      .where('kind', '=', BROKER_KIND)
      .where('heartbeat_at', '>', sql<Date>`now() - make_interval(secs => ${ttlMs / 1000})`);
    return eb.and([eb('broker_id', '<>', this.brokerId), eb('broker_id', 'not in', live)]);
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
      return closed.map(toClosed);
    });
  }
}

function toClosed(c: {
  id: string;
  device_id: string;
  client_id: string;
  broker_id: string;
  keepalive: number;
}): ClosedConnection {
  return {
    connectionId: c.id,
    mac: c.device_id,
    clientIdHash: c.client_id,
    brokerId: c.broker_id,
    keepalive: c.keepalive,
  };
}
