import { PoolBusyError } from '@fleet/db';
import { DependencyUnavailableError, isRedisUnreachable } from '@fleet/queues';

export type Dependency = DependencyUnavailableError['dependency'];

// Postgres SQLSTATEs that mean "not reachable now", not "your query is wrong": connection exceptions (class
// 08), the server shutting down or starting up (57P01–57P03), too many connections (53300).
const PG_UNAVAILABLE_CODE = /^(08...|57P0[123]|53300)$/;
// What node-postgres says when the socket fails or never opens.
const PG_UNAVAILABLE_MESSAGE = [
  /Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error/,
  /Can't reach database server/,
  /the database system is (starting up|shutting down|in recovery mode)/,
  /terminating connection due to administrator command/,
];
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * Which dependency an error says is unreachable, if any. A request that fails that way is answered 503 with
 * Retry-After (the client may try again), not 500 (something is wrong with the API). Redis commands on the
 * API's connections fail at once while Redis is down (createRequestRedis), so a socket error is Postgres's.
 */
export function unavailableDependency(err: unknown, depth = 0): Dependency | undefined {
  if (err instanceof DependencyUnavailableError) return err.dependency;
  if (isRedisUnreachable(err)) return 'redis';
  if (!err || typeof err !== 'object' || depth > 4) return undefined;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errno?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && (PG_UNAVAILABLE_CODE.test(code) || SOCKET_ERRORS.has(code))) return 'postgres';
  const message = typeof e.message === 'string' ? e.message : '';
  if (PG_UNAVAILABLE_MESSAGE.some((p) => p.test(message))) return 'postgres';
  if ([...SOCKET_ERRORS].some((s) => message.includes(s))) return 'postgres';
  // A wrapped error carries the driver's error as `cause`; AggregateError (connect to ::1 and
  // 127.0.0.1 both refused) carries it in `errors`.
  const inner = [e.cause, ...((err as { errors?: unknown[] }).errors ?? [])];
  for (const i of inner) {
    const found = unavailableDependency(i, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * The PoolBusyError an error is or wraps: the API had more work at once than database connections while Postgres
 * kept answering (a 503 that says so, not "postgres is unreachable").
 */
export function poolBusy(err: unknown, depth = 0): PoolBusyError | undefined {
  if (err instanceof PoolBusyError) return err;
  if (!err || typeof err !== 'object' || depth > 4) return undefined;
  const inner = [(err as { cause?: unknown }).cause, ...((err as { errors?: unknown[] }).errors ?? [])];
  for (const i of inner) {
    const found = poolBusy(i, depth + 1);
    if (found) return found;
  }
  return undefined;
}
