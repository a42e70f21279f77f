import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Role } from '@fleet/auth';
import { createDatabase, sql, type Database, type Pool } from '@fleet/db';
import { ApiError, notFound } from '../http/api-error';
import { PG_POOL } from '../infra/tokens';

export interface OperatorRecord {
  id: string;
  email: string;
  name: string;
  role: Role;
  passwordHash: string | null;
  oidcIssuer: string | null;
  oidcSubject: string | null;
  disabledAt: Date | null;
  createdAt: Date;
}

export interface NewOperator {
  email: string;
  name: string;
  role: Role;
  passwordHash?: string;
  oidc?: { issuer: string; subject: string };
}

const COLUMNS = [
  'id',
  'email',
  'name',
  'role',
  'password_hash as passwordHash',
  'oidc_issuer as oidcIssuer',
  'oidc_subject as oidcSubject',
  'disabled_at as disabledAt',
  'created_at as createdAt',
] as const;

/** One lock for every change of an account's role or state (see update). */
const OPERATOR_CHANGE_LOCK = 727073691;

/** Operators (people) and their sessions' fate when an account changes. */
@Injectable()
export class OperatorsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async byId(id: string): Promise<OperatorRecord | null> {
    return (
      (await this.db.selectFrom('operator').select(COLUMNS).where('id', '=', id).executeTakeFirst()) ?? null
    );
  }

  async byEmail(email: string): Promise<OperatorRecord | null> {
    const row = await this.db
      .selectFrom('operator')
      .select(COLUMNS)
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    return row ?? null;
  }

  async byOidc(issuer: string, subject: string): Promise<OperatorRecord | null> {
    const row = await this.db
      .selectFrom('operator')
      .select(COLUMNS)
      .where('oidc_issuer', '=', issuer)
      .where('oidc_subject', '=', subject)
      .executeTakeFirst();
    return row ?? null;
  }

  list(): Promise<OperatorRecord[]> {
    return this.db.selectFrom('operator').select(COLUMNS).orderBy('email').execute();
  }

  async create(o: NewOperator): Promise<OperatorRecord> {
    try {
      return await this.db
        .insertInto('operator')
        .values({
          id: randomUUID(),
          email: o.email.toLowerCase(),
          name: o.name,
          role: o.role,
          password_hash: o.passwordHash ?? null,
          oidc_issuer: o.oidc?.issuer ?? null,
          oidc_subject: o.oidc?.subject ?? null,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    } catch (err) {
      if ((err as { code?: string }).code === '23505') {
        throw new ApiError(409, 'operator_exists', `an operator with email ${o.email} exists`);
      }
      throw err;
    }
  }

  async bindOidc(id: string, issuer: string, subject: string): Promise<void> {
    await this.db
      .updateTable('operator')
      .set({ oidc_issuer: issuer, oidc_subject: subject })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Changes an account; disabling one ends its sessions, and so does a new password (a session begun with the old
   * password, perhaps by whoever learned it, must not outlive it), except `keepSessionId`: the session of a person
   * who changed their own password. Serialised on one lock and checked inside the transaction, so two admins
   * demoting each other at once cannot leave the install without an admin.
   */
  async update(
    id: string,
    change: { name?: string; role?: Role; passwordHash?: string; disabled?: boolean },
    keepSessionId?: string,
  ): Promise<OperatorRecord> {
    return this.db.transaction().execute(async (tx) => {
      await sql`SELECT pg_advisory_xact_lock(${OPERATOR_CHANGE_LOCK})`.execute(tx);
      const updated = await tx
        .updateTable('operator')
        .set({
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.role !== undefined ? { role: change.role } : {}),
          ...(change.passwordHash !== undefined ? { password_hash: change.passwordHash } : {}),
          ...(change.disabled !== undefined ? { disabled_at: change.disabled ? new Date() : null } : {}),
          // an empty change still returns the row, as the lookup of an unknown id still fails
          id,
        })
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirst();
      if (!updated) throw notFound('operator', id);
      const { admins } = await tx
        .selectFrom('operator')
        .select((eb) => eb.fn.countAll<string>().as('admins'))
        .where('role', '=', 'admin')
        .where('disabled_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(admins) === 0) {
        throw new ApiError(409, 'last_admin', 'this would leave no enabled admin; promote someone first');
      }
      if (change.disabled || change.passwordHash !== undefined) {
        let revoke = tx
          .updateTable('session')
          .set({ revoked_at: new Date() })
          .where('operator_id', '=', id)
          .where('revoked_at', 'is', null);
        if (keepSessionId && !change.disabled) revoke = revoke.where('id', '!=', keepSessionId);
        await revoke.execute();
      }
      return updated;
    });
  }

  async exists(id: string): Promise<boolean> {
    return (
      (await this.db.selectFrom('operator').select('id').where('id', '=', id).executeTakeFirst()) !==
      undefined
    );
  }
}
