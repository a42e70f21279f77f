import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import { SqlParams } from '../http/sql';
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
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async history(
    deviceId: string,
    limit: number,
    before?: { openedAt: string; id: string },
  ): Promise<ConnectionRow[]> {
    const p = new SqlParams();
    const where = [`device_id = ${p.add(deviceId)}`];
    if (before) where.push(`(opened_at, id) < (${p.add(before.openedAt)}::timestamptz, ${p.add(before.id)})`);
    const { rows } = await this.pool.query<ConnectionRow>(
      `SELECT id AS "connectionId", broker_id AS "brokerId", left(client_id, 8) AS "clientIdFingerprint", remote_address AS "remoteAddress",
              keepalive, opened_at AS "openedAt", online_at AS "onlineAt", closed_at AS "closedAt",
              close_reason AS "closeReason"
         FROM connection WHERE ${where.join(' AND ')}
        ORDER BY opened_at DESC, id DESC LIMIT ${p.add(limit + 1)}`,
      p.values,
    );
    return rows;
  }
}
