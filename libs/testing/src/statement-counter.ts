import type { Pool } from 'pg';

/** How many statements a pool's connections sent since the last reset. */
export interface StatementCounter {
  readonly count: number;
  reset(): void;
}

/**
 * Counts the statements a pool sends, on the connections themselves (Kysely checks a client out for each
 * statement, so the pool's own `query` would miss them): for tests that hold a batch to "one statement".
 * Call it before the pool opens its first connection.
 */
export function countStatements(pool: Pool): StatementCounter {
  let count = 0;
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      count++;
      return query(...args);
    }) as typeof client.query;
  });
  return {
    get count() {
      return count;
    },
    reset() {
      count = 0;
    },
  };
}
