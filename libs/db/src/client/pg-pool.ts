import { Pool, type PoolClient } from 'pg';

export { Pool } from 'pg';

/**
 * A wait for one of the pool's connections that ran out while Postgres kept answering on the others: more work at
 * once than the pool's connections take, not an outage. node-postgres raises the same error for both
 * ("timeout exceeded when trying to connect"); this one says which it was.
 */
export class PoolBusyError extends Error {
  readonly code = 'pool_busy';
  constructor(waitedMs: number, max: number) {
    super(`all ${max} database connections stayed busy for ${waitedMs} ms`);
  }
}

const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

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
  tellBusyFromUnreachable(pool, max);
  // The pool listens for errors on idle clients only. A client checked out (a transaction in progress) whose
  // connection dies (Postgres restarted) emits 'error' too, and without a listener that kills the process; its
  // query is rejected all the same, so the caller still learns of it.
  pool.on('connect', (client) => client.on('error', (err) => onError?.(err)));
  return pool;
}

/**
 * Rewrites a timed-out wait for a connection into PoolBusyError when some connection of the pool came back from
 * Postgres during the wait (so the server answers). A wait during which no connection came back keeps the
 * driver's error: the server, or the way to it, may be gone (a cut link leaves every connection hanging).
 */
function tellBusyFromUnreachable(pool: Pool, max: number): void {
  let lastReleaseAt = 0;
  // A connection given back after an error (its socket died mid-query) says nothing of the server answering.
  pool.on('release', (err: Error | undefined) => {
    if (!err) lastReleaseAt = performance.now();
  });
  const connect = pool.connect.bind(pool) as (cb?: ConnectCallback) => Promise<PoolClient> | undefined;
  const busyOrAsIs = <E extends Error | undefined>(err: E, askedAt: number): E | PoolBusyError =>
    err?.message === POOL_WAIT_TIMEOUT && lastReleaseAt > askedAt
      ? new PoolBusyError(Math.round(performance.now() - askedAt), max)
      : err;
  // pool.query checks its client out through this.connect, so both paths pass here.
  pool.connect = ((cb?: ConnectCallback) => {
    const askedAt = performance.now();
    if (cb) return connect((err, client, done) => cb(busyOrAsIs(err, askedAt), client, done));
    return connect()!.catch((err: Error) => {
      throw busyOrAsIs(err, askedAt);
    });
  }) as Pool['connect'];
}

type ConnectCallback = (
  err: Error | undefined,
  client: PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;
