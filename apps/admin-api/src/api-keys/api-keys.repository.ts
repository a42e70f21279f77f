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
  /** The groups a bounded key reaches (what is left of them); null: the whole fleet. */
  groups: { id: string; name: string }[] | null;
}

/** Everything but the secret's hash, which never leaves the credentials lookup. */
const COLUMNS = [
  'k.id',
  'k.operator_id as operatorId',
  'k.name',
  'k.prefix',
  'k.role',
  'k.created_at as createdAt',
  'k.last_used_at as lastUsedAt',
  'k.revoked_at as revokedAt',
  'k.group_scoped as groupScoped',
] as const;

type KeyRow = Omit<ApiKeyRecord, 'groups'> & { groupScoped: boolean };

@Injectable()
export class ApiKeysRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async list(operatorId?: string): Promise<ApiKeyRecord[]> {
    let query = this.db.selectFrom('api_key as k').select(COLUMNS).orderBy('k.created_at');
    if (operatorId) query = query.where('k.operator_id', '=', operatorId);
    return this.withGroups(await query.execute());
  }

  /** The key and its groups in one transaction: a bounded key is never seen, even for a moment, unbounded. */
  async create(k: {
    operatorId: string;
    name: string;
    role: Role;
    prefix: string;
    secretHash: string;
    groupIds?: string[];
  }): Promise<ApiKeyRecord> {
    const id = randomUUID();
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('api_key')
        .values({
          id,
          operator_id: k.operatorId,
          name: k.name,
          role: k.role,
          prefix: k.prefix,
          secret_hash: k.secretHash,
          group_scoped: k.groupIds !== undefined,
        })
        .execute();
      if (k.groupIds?.length) {
        await tx
          .insertInto('api_key_group')
          .values(k.groupIds.map((groupId) => ({ api_key_id: id, group_id: groupId })))
          .execute();
      }
    });
    return (await this.byId(id))!;
  }

  /** Which of these group ids name no group. */
  async unknownGroups(groupIds: string[]): Promise<string[]> {
    const known = await this.db.selectFrom('device_group').select('id').where('id', 'in', groupIds).execute();
    const ids = new Set(known.map((g) => g.id));
    return groupIds.filter((id) => !ids.has(id));
  }

  /** Revoking twice keeps the first revocation's time. */
  async revoke(id: string): Promise<ApiKeyRecord | null> {
    await this.db
      .updateTable('api_key')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return (await this.byId(id)) ?? null;
  }

  private async byId(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_key as k')
      .select(COLUMNS)
      .where('k.id', '=', id)
      .executeTakeFirst();
    return row ? (await this.withGroups([row]))[0] : undefined;
  }

  private async withGroups(keys: KeyRow[]): Promise<ApiKeyRecord[]> {
    const scoped = keys.filter((k) => k.groupScoped).map((k) => k.id);
    const rows =
      scoped.length === 0
        ? []
        : await this.db
            .selectFrom('api_key_group as kg')
            .innerJoin('device_group as g', 'g.id', 'kg.group_id')
            .select(['kg.api_key_id as keyId', 'g.id', 'g.name'])
            .where('kg.api_key_id', 'in', scoped)
            .orderBy('g.name')
            .execute();
    return keys.map(({ groupScoped, ...k }) => ({
      ...k,
      groups: groupScoped
        ? rows.filter((r) => r.keyId === k.id).map((r) => ({ id: r.id, name: r.name }))
        : null,
    }));
  }
}
