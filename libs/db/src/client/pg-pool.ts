import { Pool } from 'pg';

export { Pool } from 'pg';

/**
 * A plain pg pool for what Prisma is slow at (bulk evidence writes with unnest/COPY, hot-path reads).
 * Connection errors are reported, not thrown: a Postgres restart must not crash the service.
 */
export function createPgPool(
  url: string,
  {
    max = 10,
    onError,
    connectionTimeoutMs = 5_000,
  }: { max?: number; onError?: (err: Error) => void; connectionTimeoutMs?: number } = {},
): Pool {
  const pool = new Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: connectionTimeoutMs,
    // The platform's statements are short OLTP work that plans estimate as costly (batches of JSON documents,
    // a few hundred rows): with JIT on, Postgres compiled them with LLVM again and again, a third of its CPU in
    // the fleet-calls benchmark for no faster execution (docs/BENCHMARKS.md §11).
    options: '-c jit=off',
  });
  pool.on('error', (err) => onError?.(err));
  // The pool listens for errors on idle clients only. A client checked out (a transaction in progress) whose
  // connection dies (Postgres restarted) emits 'error' too, and without a listener that kills the process; its
  // query is rejected all the same, so the caller still learns of it.
  pool.on('connect', (client) => client.on('error', (err) => onError?.(err)));
  return pool;
}
