import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, sql, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface ConnectionRow {
  connectionId: string;
  brokerId: string;
  /** The first 8 hex of the connection's Client-Id hash (DESIGN §3: never the Client-Id itself). */
  clientIdFingerprint: string;
  remoteAddress: string | null;
  keepalive: number;
  openedAt: Date;
  onlineAt: Date | null;
  closedAt: Date | null;
  closeReason: string | null;
}

/** A device's connections, newest first: its presence history (index (device_id, opened_at)). */
@Injectable()
export class PresenceRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  history(
    deviceId: string,
    limit: number,
    before?: { openedAt: string; id: string },
  ): Promise<ConnectionRow[]> {
    let query = this.db
      .selectFrom('connection')
      .select([
        'id as connectionId',
        'broker_id as brokerId',
        sql<string>`left(client_id, 8)`.as('clientIdFingerprint'),
        'remote_address as remoteAddress',
        'keepalive',
        'opened_at as openedAt',
        'online_at as onlineAt',
        'closed_at as closedAt',
        'close_reason as closeReason',
      ])
      .where('device_id', '=', deviceId);
    if (before) {
      query = query.where((eb) =>
        eb(
          eb.refTuple('opened_at', 'id'),
          '<',
          eb.tuple(sql<Date>`${before.openedAt}::timestamptz`, before.id),
        ),
      );
    }
    return query
      .orderBy('opened_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
  }
}
