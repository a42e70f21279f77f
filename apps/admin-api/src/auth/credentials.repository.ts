import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Role } from '@fleet/auth';
import { createDatabase, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface KeyOwner {
  keyId: string;
  secretHash: string;
  keyRole: Role;
  revoked: boolean;
  /** The device groups a group-scoped key reaches (empty once they are all deleted); null: the whole fleet. */
  groupIds: string[] | null;
  operator: { id: string; email: string; name: string; role: Role; disabled: boolean };
}

export interface SessionOwner {
  sessionId: string;
  expiresAt: Date;
  operator: { id: string; email: string; name: string; role: Role; disabled: boolean };
}

const OWNER = [
  'operator.id as operatorId',
  'operator.email',
  'operator.name',
  'operator.role',
  'operator.disabled_at',
] as const;

/** Looks up API keys and sessions by what a request presents (a key prefix, a token hash): one query each. */
@Injectable()
export class CredentialsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async keyByPrefix(prefix: string): Promise<KeyOwner | undefined> {
    const key = await this.db
      .selectFrom('api_key')
      .innerJoin('operator', 'operator.id', 'api_key.operator_id')
      .select([
        'api_key.id',
        'api_key.secret_hash',
        'api_key.role as keyRole',
        'api_key.revoked_at',
        'api_key.group_scoped',
        (eb) =>
          eb
            .selectFrom('api_key_group as g')
            .select((a) => a.fn.agg<string[]>('array_agg', ['g.group_id']).as('ids'))
            .whereRef('g.api_key_id', '=', 'api_key.id')
            .as('groupIds'),
        ...OWNER,
      ])
      .where('api_key.prefix', '=', prefix)
      .executeTakeFirst();
    if (!key) return undefined;
    return {
      keyId: key.id,
      secretHash: key.secret_hash,
      keyRole: key.keyRole,
      revoked: key.revoked_at !== null,
      groupIds: key.group_scoped ? (key.groupIds ?? []) : null,
      operator: ownerOf(key),
    };
  }

  /** Last use is recorded at most once a minute per key: a busy client must not cost a write per request. */
  async touchKey(keyId: string): Promise<void> {
    await this.db
      .updateTable('api_key')
      .set({ last_used_at: new Date() })
      .where('id', '=', keyId)
      .where((eb) =>
        eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(Date.now() - 60_000))]),
      )
      .execute();
  }

  async liveSession(tokenHash: string): Promise<SessionOwner | undefined> {
    const session = await this.db
      .selectFrom('session')
      .innerJoin('operator', 'operator.id', 'session.operator_id')
      .select(['session.id', 'session.expires_at', ...OWNER])
      .where('session.token_hash', '=', tokenHash)
      .where('session.revoked_at', 'is', null)
      .where('session.expires_at', '>', new Date())
      .executeTakeFirst();
    return session
      ? { sessionId: session.id, expiresAt: session.expires_at, operator: ownerOf(session) }
      : undefined;
  }

  async createSession(s: {
    operatorId: string;
    tokenHash: string;
    expiresAt: Date;
    ip?: string;
    userAgent?: string;
  }): Promise<string> {
    const { id } = await this.db
      .insertInto('session')
      .values({
        id: randomUUID(),
        operator_id: s.operatorId,
        token_hash: s.tokenHash,
        expires_at: s.expiresAt,
        ip: s.ip ?? null,
        user_agent: s.userAgent ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.db
      .updateTable('session')
      .set({ revoked_at: new Date() })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}

function ownerOf(o: {
  operatorId: string;
  email: string;
  name: string;
  role: Role;
  disabled_at: Date | null;
}) {
  return { id: o.operatorId, email: o.email, name: o.name, role: o.role, disabled: o.disabled_at !== null };
}
