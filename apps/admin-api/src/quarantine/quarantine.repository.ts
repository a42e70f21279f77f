import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import type { Tx } from '../infra/transactions';
import { SqlParams } from '../http/sql';
import { PG_POOL } from '../infra/tokens';

export interface QuarantineRow {
  id: string;
  deviceId: string;
  claimedClientId: string;
  claimedSerial: string | null;
  remoteAddress: string | null;
  state: 'pending' | 'accepted' | 'rejected';
  decidedBy: string | null;
  decidedAt: Date | null;
  reason: string | null;
  createdAt: Date;
}

const COLUMNS = `id, device_id AS "deviceId", claimed_client_id AS "claimedClientId", claimed_serial AS "claimedSerial",
  remote_address AS "remoteAddress", state, decided_by AS "decidedBy", decided_at AS "decidedAt", reason,
  created_at AS "createdAt"`;

/** Check-ins the broker held back because their Client-Id differs from the one bound to the MAC. */
@Injectable()
export class QuarantineRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async list(
    state: string,
    limit: number,
    after?: { createdAt: string; id: string },
  ): Promise<QuarantineRow[]> {
    const p = new SqlParams();
    const where = [`state = ${p.add(state)}::"QuarantineState"`];
    if (after)
      where.push(`(created_at, id) > (${p.add(after.createdAt)}::timestamptz, ${p.add(after.id)}::uuid)`);
    const { rows } = await this.pool.query<QuarantineRow>(
      `SELECT ${COLUMNS} FROM device_quarantine WHERE ${where.join(' AND ')}
        ORDER BY created_at, id LIMIT ${p.add(limit + 1)}`,
      p.values,
    );
    return rows;
  }

  /** The device's pending claims, locked until the transaction decides them. */
  async pendingForUpdate(db: Tx, deviceId: string): Promise<QuarantineRow[]> {
    const { rows } = await db.query<QuarantineRow>(
      `SELECT ${COLUMNS} FROM device_quarantine WHERE device_id = $1 AND state = 'pending' ORDER BY created_at FOR UPDATE`,
      [deviceId],
    );
    return rows;
  }

  async decide(
    db: Tx,
    id: string,
    state: 'accepted' | 'rejected',
    operatorId: string,
    reason: string | undefined,
  ): Promise<QuarantineRow> {
    const { rows } = await db.query<QuarantineRow>(
      `UPDATE device_quarantine SET state = $2::"QuarantineState", decided_by = $3, decided_at = now(), reason = $4
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, state, operatorId, reason ?? null],
    );
    return rows[0]!;
  }

  /** Binds the MAC to the claimed identity: the next check-in from it gets credentials, the old one none. */
  async rebind(db: Tx, deviceId: string, clientId: string, serial: string | null): Promise<void> {
    await db.query(
      `UPDATE device SET client_id = $2, serial_number = coalesce($3, serial_number), updated_at = now() WHERE id = $1`,
      [deviceId, clientId, serial],
    );
  }

  async deviceExists(deviceId: string): Promise<boolean> {
    return (await this.pool.query('SELECT 1 FROM device WHERE id = $1', [deviceId])).rowCount === 1;
  }
}
