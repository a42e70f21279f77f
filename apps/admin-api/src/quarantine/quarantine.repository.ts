import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import type { Tx } from '../infra/transactions';
import { SqlParams } from '../http/sql';
import { PG_POOL } from '../infra/tokens';

/** A claim as the API shows it: the claimed Client-Id only as the first 8 hex of its hash (DESIGN §3). */
export interface QuarantineRow {
  id: string;
  deviceId: string;
  claimedClientIdFingerprint: string;
  claimedSerial: string | null;
  remoteAddress: string | null;
  state: 'pending' | 'accepted' | 'rejected';
  decidedBy: string | null;
  decidedAt: Date | null;
  reason: string | null;
  createdAt: Date;
}

/** A pending claim as the decision needs it: with the claimed hash, which never leaves the service. */
export interface PendingClaim extends QuarantineRow {
  claimedClientIdHash: string;
}

const COLUMNS = `id, device_id AS "deviceId", left(claimed_client_id, 8) AS "claimedClientIdFingerprint",
  claimed_serial AS "claimedSerial", remote_address AS "remoteAddress", state, decided_by AS "decidedBy",
  decided_at AS "decidedAt", reason, created_at AS "createdAt"`;

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
  async pendingForUpdate(db: Tx, deviceId: string): Promise<PendingClaim[]> {
    const { rows } = await db.query<PendingClaim>(
      `SELECT ${COLUMNS}, claimed_client_id AS "claimedClientIdHash" FROM device_quarantine
        WHERE device_id = $1 AND state = 'pending' ORDER BY created_at FOR UPDATE`,
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

  /**
   * Binds the MAC to the claimed identity: the next check-in from it gets credentials, the old one none. What
   * changed (Client-Id, serial) becomes identity events citing the claim and who accepted it (DESIGN §3).
   */
  async rebind(db: Tx, claim: PendingClaim, operatorId: string, reason: string | undefined): Promise<void> {
    const { rows } = await db.query<{ client_id: string; serial_number: string | null }>(
      `SELECT client_id, serial_number FROM device WHERE id = $1 FOR UPDATE`,
      [claim.deviceId],
    );
    const before = rows[0]!;
    await db.query(
      `UPDATE device SET client_id = $2, serial_number = coalesce($3, serial_number), mqtt_client_id_hash = NULL,
              updated_at = now() WHERE id = $1`,
      [claim.deviceId, claim.claimedClientIdHash, claim.claimedSerial],
    );
    const changes: [string, string | null, string | null][] = [];
    if (before.client_id !== claim.claimedClientIdHash)
      changes.push(['client_id', before.client_id, claim.claimedClientIdHash]);
    if (claim.claimedSerial !== null && claim.claimedSerial !== before.serial_number)
      changes.push(['serial', before.serial_number, claim.claimedSerial]);
    if (changes.length === 0) return;
    await db.query(
      `INSERT INTO device_identity_event (device_id, field, previous, current, source, quarantine_id, operator_id, details)
       SELECT $1, u.field::"IdentityField", u.previous, u.current, 'operator', $2, $3, $4
         FROM unnest($5::text[], $6::text[], $7::text[]) AS u(field, previous, current)`,
      [
        claim.deviceId,
        claim.id,
        operatorId,
        JSON.stringify(reason === undefined ? {} : { reason }),
        changes.map((c) => c[0]),
        changes.map((c) => c[1]),
        changes.map((c) => c[2]),
      ],
    );
  }

  async deviceExists(deviceId: string): Promise<boolean> {
    return (await this.pool.query('SELECT 1 FROM device WHERE id = $1', [deviceId])).rowCount === 1;
  }
}
