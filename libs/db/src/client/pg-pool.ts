import { Pool } from 'pg';

export { Pool } from 'pg';

/**
 * A plain pg pool for what Prisma is slow at (bulk evidence writes with unnest/COPY, hot-path reads).
 * Errors on idle clients are reported, not thrown: a Postgres restart must not crash the service.
 */
export function createPgPool(
  url: string,
  {
    max = 10,
    onError,
    connectionTimeoutMs = 5_000,
  }: { max?: number; onError?: (err: Error) => void; connectionTimeoutMs?: number } = {},
): Pool {
  const pool = new Pool({ connectionString: url, max, connectionTimeoutMillis: connectionTimeoutMs });
  pool.on('error', (err) => onError?.(err));
  return pool;
}
