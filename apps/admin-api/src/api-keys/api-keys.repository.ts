import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Role } from '@fleet/auth';
import { createDatabase, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface ApiKeyRecord {
  id: string;
  operatorId: string;
  name: string;
  prefix: string;
  role: Role;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Everything but the secret's hash, which never leaves the credentials lookup. */
const COLUMNS = [
  'id',
  'operator_id as operatorId',
  'name',
  'prefix',
  'role',
  'created_at as createdAt',
  'last_used_at as lastUsedAt',
  'revoked_at as revokedAt',
] as const;

@Injectable()
export class ApiKeysRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  list(operatorId?: string): Promise<ApiKeyRecord[]> {
    let query = this.db.selectFrom('api_key').select(COLUMNS).orderBy('created_at');
    if (operatorId) query = query.where('operator_id', '=', operatorId);
    return query.execute();
  }

  create(k: {
    operatorId: string;
    name: string;
    role: Role;
    prefix: string;
    secretHash: string;
  }): Promise<ApiKeyRecord> {
    return this.db
      .insertInto('api_key')
      .values({
        id: randomUUID(),
        operator_id: k.operatorId,
        name: k.name,
        role: k.role,
        prefix: k.prefix,
        secret_hash: k.secretHash,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
  }

  /** Revoking twice keeps the first revocation's time. */
  async revoke(id: string): Promise<ApiKeyRecord | null> {
    await this.db
      .updateTable('api_key')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return (
      (await this.db.selectFrom('api_key').select(COLUMNS).where('id', '=', id).executeTakeFirst()) ?? null
    );
  }
}
