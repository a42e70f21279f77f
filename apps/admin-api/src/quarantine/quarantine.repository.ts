import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, databaseOn, jsonParam, sql, type Database, type Pool, type Row } from '@fleet/db';
import type { Tx } from '../infra/transactions';
import { PG_POOL } from '../infra/tokens';

/** A claim as the API shows it: the claimed Client-Id only as the first 8 hex of its hash (DESIGN §3). */
export interface QuarantineRow {
  id: string;
  deviceId: string;
  claimedClientIdFingerprint: string;
  claimedSerial: string | null;
  remoteAddress: string | null;
  state: Row<'device_quarantine'>['state'];
  decidedBy: string | null;
  decidedAt: Date | null;
  reason: string | null;
  createdAt: Date;
}

/** A pending claim as the decision needs it: with the claimed hash, which never leaves the service. */
export interface PendingClaim extends QuarantineRow {
  claimedClientIdHash: string;
}

const COLUMNS = [
  'id',
  'device_id as deviceId',
  sql<string>`left(claimed_client_id, 8)`.as('claimedClientIdFingerprint'),
  'claimed_serial as claimedSerial',
  'remote_address as remoteAddress',
  'state',
  'decided_by as decidedBy',
  'decided_at as decidedAt',
  'reason',
  'created_at as createdAt',
] as const;

/** Check-ins the broker held back because their Client-Id differs from the one bound to the MAC. */
@Injectable()
export class QuarantineRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  list(
    state: Row<'device_quarantine'>['state'],
    limit: number,
    after?: { createdAt: string; id: string },
  ): Promise<QuarantineRow[]> {
    let query = this.db.selectFrom('device_quarantine').select(COLUMNS).where('state', '=', state);
    if (after) {
      query = query.where((eb) =>
        eb(
          eb.refTuple('created_at', 'id'),
          '>',
          eb.tuple(sql<Date>`${after.createdAt}::timestamptz`, sql<string>`${after.id}::uuid`),
        ),
      );
    }
    return query
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit + 1)
      .execute();
  }

  /** The device's pending claims, locked until the transaction decides them. */
  pendingForUpdate(tx: Tx, deviceId: string): Promise<PendingClaim[]> {
    return databaseOn(tx)
      .selectFrom('device_quarantine')
      .select([...COLUMNS, 'claimed_client_id as claimedClientIdHash'])
      .where('device_id', '=', deviceId)
      .where('state', '=', 'pending')
      .orderBy('created_at')
      .forUpdate()
      .execute();
  }

  decide(
    tx: Tx,
    id: string,
    state: 'accepted' | 'rejected',
    operatorId: string,
    reason: string | undefined,
  ): Promise<QuarantineRow> {
    return databaseOn(tx)
      .updateTable('device_quarantine')
      .set({ state, decided_by: operatorId, decided_at: sql<Date>`now()`, reason: reason ?? null })
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
  }

  /**
   * Binds the MAC to the claimed identity: the next check-in from it gets credentials, the old one none. What
   * changed (Client-Id, serial) becomes identity events citing the claim and who accepted it (DESIGN §3).
   */
  async rebind(tx: Tx, claim: PendingClaim, operatorId: string, reason: string | undefined): Promise<void> {
    const db = databaseOn(tx);
    const before = await db
      .selectFrom('device')
      .select(['client_id', 'serial_number'])
      .where('id', '=', claim.deviceId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    await db
      .updateTable('device')
      .set((eb) => ({
        client_id: claim.claimedClientIdHash,
        serial_number: eb.fn.coalesce(eb.val(claim.claimedSerial), 'serial_number'),
        mqtt_client_id_hash: null,
        updated_at: new Date(),
      }))
      .where('id', '=', claim.deviceId)
      .execute();
    const changes: {
      field: Row<'device_identity_event'>['field'];
      previous: string | null;
      current: string | null;
    }[] = [];
    if (before.client_id !== claim.claimedClientIdHash)
      changes.push({ field: 'client_id', previous: before.client_id, current: claim.claimedClientIdHash });
    if (claim.claimedSerial !== null && claim.claimedSerial !== before.serial_number)
      changes.push({ field: 'serial', previous: before.serial_number, current: claim.claimedSerial });
    if (changes.length === 0) return;
    const details = jsonParam(reason === undefined ? {} : { reason });
    await db
      .insertInto('device_identity_event')
      .values(
        changes.map((c) => ({
          ...c,
          device_id: claim.deviceId,
          source: 'operator' as const,
          quarantine_id: claim.id,
          operator_id: operatorId,
          details,
        })),
      )
      .execute();
  }

  async deviceExists(deviceId: string): Promise<boolean> {
    return (
      (await this.db.selectFrom('device').select('id').where('id', '=', deviceId).executeTakeFirst()) !==
      undefined
    );
  }
}
