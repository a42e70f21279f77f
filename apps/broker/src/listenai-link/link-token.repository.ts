import { createDatabase, type Database, type Pool } from '@fleet/db';

export interface LinkTokenRecord {
  tokenId: string;
  secretHash: string;
  revoked: boolean;
  deviceId: string;
  deviceStatus: 'active' | 'awaiting_activation' | 'revoked' | 'decommissioned';
  dialect: 'xiaozhi' | 'listenai';
}

/** The link's reads and writes of device tokens (DESIGN §8: Kysely over the broker's pool). */
export class LinkTokenRepository {
  private readonly db: Database;

  constructor(pool: Pool) {
    this.db = createDatabase(pool);
  }

  async findByPrefix(prefix: string): Promise<LinkTokenRecord | undefined> {
    const row = await this.db
      .selectFrom('device_link_token as t')
      .innerJoin('device as d', 'd.id', 't.device_id')
      .select([
        't.id as tokenId',
        't.secret_hash as secretHash',
        't.revoked_at as revokedAt',
        'd.id as deviceId',
        'd.status as deviceStatus',
        'd.dialect as dialect',
      ])
      .where('t.prefix', '=', prefix)
      .executeTakeFirst();
    if (!row) return undefined;
    const { revokedAt, ...rest } = row;
    return { ...rest, revoked: revokedAt !== null };
  }

  /** When a token was last used to open a link (shown to operators); best effort. */
  async touch(tokenId: string, at: Date): Promise<void> {
    await this.db
      .updateTable('device_link_token')
      .set({ last_used_at: at })
      .where('id', '=', tokenId)
      .execute();
  }
}
