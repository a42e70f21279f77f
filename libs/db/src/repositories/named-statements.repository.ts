import { Kysely, type CompiledQuery } from 'kysely';
import type { ClientBase, Pool } from 'pg';
import type { Database } from '../client/kysely';

/** Where a repository's statement can run: a Kysely (a transaction included), or a pg pool or client. */
export type StatementTarget = Database | Pool | ClientBase;

/**
 * Runs a compiled query as a named statement on a pg pool or client: each connection parses and plans it once and
 * then only binds (Kysely's driver sends every query unnamed, parsed and planned again each time). For statements
 * that run per call or per request. On a Kysely (a transaction) it runs as Kysely runs it. The text must be the
 * same every time for one name (pg refuses a name reused for another text): only `parameters` vary.
 */
export async function executeNamed<R>(
  db: StatementTarget,
  name: string,
  query: CompiledQuery<R>,
  parameters: readonly unknown[] = query.parameters,
): Promise<R[]> {
  if (db instanceof Kysely) return (await db.executeQuery<R>({ ...query, parameters })).rows;
  const { rows } = await db.query<R & object>({ name, text: query.sql, values: [...parameters] });
  return rows;
}
