import { sql, type Database } from '@fleet/db';
import type { IssuedChallenge } from './activation-challenges.repository';

export type ProofBinding =
  /** A device seen for the first time, registered by its proof. */
  | 'registered'
  /** Its flash was erased: the MAC is bound to the new Client-Id, an identity event says so. */
  | 'rebound'
  | 'unchanged'
  /** The same identity, waiting for an operator's activation code until now. */
  | 'activated'
  /** The serial belongs to another MAC already: a proof of the key says nothing about this MAC. */
  | 'serial_in_use'
  /** The MAC is bound to another serial (or none): proving some serial's key does not prove this device. */
  | 'other_serial'
  | 'revoked';

/**
 * DESIGN §3: a device that proves its eFuse key takes its MAC back without an operator. One transaction, the
 * device row locked, so two proofs (or a proof and an operator's decision) never interleave.
 */
export class ProofBindingRepository {
  constructor(private readonly db: Database) {}

  bind(claim: IssuedChallenge): Promise<ProofBinding> {
    return this.db.transaction().execute(async (tx) => {
      const elsewhere = await tx
        .selectFrom('device')
        .select('id')
        .where('serial_number', '=', claim.serialNumber)
        .where('id', '<>', claim.mac)
        .executeTakeFirst();
      if (elsewhere) return 'serial_in_use';
      const inserted = await tx
        .insertInto('device')
        .values({
          id: claim.mac,
          client_id: claim.clientIdHash,
          serial_number: claim.serialNumber,
          status: 'active',
          updated_at: sql<Date>`now()`,
        })
        .onConflict((c) => c.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) return 'registered';
      const device = await tx
        .selectFrom('device')
        .select(['client_id', 'serial_number', 'status'])
        .where('id', '=', claim.mac)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (device.serial_number !== claim.serialNumber) return 'other_serial';
      if (device.status === 'revoked' || device.status === 'decommissioned') return 'revoked';
      if (device.client_id === claim.clientIdHash && device.status === 'active') return 'unchanged';
      await tx
        .updateTable('device')
        .set({
          client_id: claim.clientIdHash,
          // The next OTA answer issues the credentials the broker will accept.
          mqtt_client_id_hash: null,
          status: 'active',
          activation_code: null,
          activation_challenge: null,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', claim.mac)
        .execute();
      if (device.client_id !== claim.clientIdHash) {
        await tx
          .insertInto('device_identity_event')
          .values({
            device_id: claim.mac,
            field: 'client_id',
            previous: device.client_id,
            current: claim.clientIdHash,
            source: 'proof',
            details: JSON.stringify({ serialNumber: claim.serialNumber, algorithm: 'hmac-sha256' }),
          })
          .execute();
      }
      return device.client_id === claim.clientIdHash ? 'activated' : 'rebound';
    });
  }
}
