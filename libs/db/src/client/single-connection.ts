import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { PoolClient } from 'pg';
import type { DB } from '../generated/kysely/database';
import type { Database } from './kysely';

/**
 * Kysely over one connection already checked out, typically inside a transaction a writer opened itself (the
 * evidence group commit, DESIGN §6): every query goes to that connection, and releasing it stays the owner's job.
 */
export function databaseOn(client: PoolClient): Database {
  const borrowed = {
    query: client.query.bind(client),
    release: () => undefined,
  } as unknown as PostgresPoolClient;
  const pool: PostgresPool = { connect: () => Promise.resolve(borrowed), end: () => Promise.resolve() };
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}
