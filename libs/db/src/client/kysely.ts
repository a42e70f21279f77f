import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Insertable,
  type Selectable,
  type Updateable,
} from 'kysely';
import type { Pool } from 'pg';
import type { DB } from '../generated/kysely/database';

export type { DB } from '../generated/kysely/database';
export { sql, type Transaction } from 'kysely';

/** The typed query builder over a pg pool the service already has (DESIGN §8): one pool, one set of connections. */
export type Database = Kysely<DB>;

/** Row types straight from the generated tables: what a SELECT returns, an INSERT takes, an UPDATE sets. */
export type Row<T extends keyof DB> = Selectable<DB[T]>;
export type NewRow<T extends keyof DB> = Insertable<DB[T]>;
export type RowUpdate<T extends keyof DB> = Updateable<DB[T]>;

/** The pool stays the caller's: end it, not the Kysely instance (whose destroy() would end the pool too). */
export function createDatabase(pool: Pool): Database {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * A Kysely that only compiles (it has no connection): for a hot statement built once at load time and run as a
 * named statement (`executeNamed`), typed from the generated tables like every other query.
 */
export const queryCompiler: Database = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
