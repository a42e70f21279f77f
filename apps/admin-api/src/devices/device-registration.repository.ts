import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool, type Row } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

type TokenRow = Pick<
  Row<'device_link_token'>,
  'id' | 'prefix' | 'created_at' | 'revoked_at' | 'last_used_at'
>;

/** Registered devices and their link tokens (DESIGN §8: Kysely over the API's pool). */
@Injectable()
export class DeviceRegistrationRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  /**
   * The device row and its first token, together or not at all. A ListenAI device has no Client-Id; the row
   * gets an unguessable one nobody is told, so an OTA check-in forged under its MAC lands in quarantine.
   * Undefined when the id is taken.
   */
  async register(
    device: { id: string; model: string | undefined },
    token: { prefix: string; secretHash: string; issuedBy: string },
  ): Promise<TokenRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('device')
        .values({
          id: device.id,
          client_id: randomUUID(),
          dialect: 'listenai',
          board: device.model ?? null,
          updated_at: new Date(),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return undefined;
      return trx
        .insertInto('device_link_token')
        .values({
          id: randomUUID(),
          device_id: device.id,
          prefix: token.prefix,
          secret_hash: token.secretHash,
          issued_by: token.issuedBy,
        })
        .returning(['id', 'prefix', 'created_at', 'revoked_at', 'last_used_at'])
        .executeTakeFirstOrThrow();
    });
  }

  /** A new token for the device; the ones it had are revoked in the same transaction. */
  async replaceToken(
    deviceId: string,
    token: { prefix: string; secretHash: string; issuedBy: string },
  ): Promise<{ token: TokenRow; revoked: string[] }> {
    return this.db.transaction().execute(async (trx) => {
      const revoked = await trx
        .updateTable('device_link_token')
        .set({ revoked_at: new Date() })
        .where('device_id', '=', deviceId)
        .where('revoked_at', 'is', null)
        .returning('id')
        .execute();
      const created = await trx
        .insertInto('device_link_token')
        .values({
          id: randomUUID(),
          device_id: deviceId,
          prefix: token.prefix,
          secret_hash: token.secretHash,
          issued_by: token.issuedBy,
        })
        .returning(['id', 'prefix', 'created_at', 'revoked_at', 'last_used_at'])
        .executeTakeFirstOrThrow();
      return { token: created, revoked: revoked.map((r) => r.id) };
    });
  }

  async revokeTokens(deviceId: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('device_link_token')
      .set({ revoked_at: new Date() })
      .where('device_id', '=', deviceId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async dialectOf(deviceId: string): Promise<'xiaozhi' | 'listenai' | undefined> {
    const row = await this.db
      .selectFrom('device')
      .select('dialect')
      .where('id', '=', deviceId)
      .executeTakeFirst();
    return row?.dialect;
  }
}
