import { createHash, randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { createDatabase, sql } from '../client/kysely';

/** How long a first-start sign-in link works (it works once). */
export const SIGN_IN_LINK_TTL_MS = 24 * 3600_000;

export interface IssuedSignInLink {
  /** The secret part of the link, in plain text: shown once, stored only as its sha256. */
  token: string;
  expiresAt: Date;
}

export function hashSignInToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * One-time console sign-in links (the first `npm start` prints one for the admin, who sets a password with it):
 * 32 random bytes, stored hashed, expiring, redeemed at most once by an atomic UPDATE.
 */
export class SignInLinksRepository {
  private readonly db;

  constructor(pool: Pool) {
    this.db = createDatabase(pool);
  }

  async issue(operatorId: string, ttlMs = SIGN_IN_LINK_TTL_MS): Promise<IssuedSignInLink> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ttlMs);
    await this.db
      .insertInto('sign_in_link')
      .values({
        id: crypto.randomUUID(),
        operator_id: operatorId,
        token_hash: hashSignInToken(token),
        expires_at: expiresAt,
      })
      .execute();
    return { token, expiresAt };
  }

  /** The operator the link signs in, if it is known, unexpired and unused; it is used from now on. */
  async redeem(token: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('sign_in_link')
      .set({ used_at: sql<Date>`now()` })
      .where('token_hash', '=', hashSignInToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('operator_id')
      .executeTakeFirst();
    return row?.operator_id;
  }
}
