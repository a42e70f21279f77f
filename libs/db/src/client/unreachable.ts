import { PoolBusyError } from './pg-pool';

// Postgres SQLSTATEs that mean "not reachable now", not "your statement is wrong": connection exceptions (class
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
const SOCKET_ERRORS = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND'];

/**
 * The error itself, or one it wraps, that passes `test`: a wrapped error carries the driver's as `cause`, and an
 * AggregateError (connecting to ::1 and 127.0.0.1, both refused) carries them in `errors`. A few levels deep.
 */
export function findCause<E>(err: unknown, test: (e: unknown) => e is E, depth = 0): E | undefined {
  if (test(err)) return err;
  if (!err || typeof err !== 'object' || depth > 4) return undefined;
  const inner = [(err as { cause?: unknown }).cause, ...((err as { errors?: unknown[] }).errors ?? [])];
  for (const i of inner) {
    const found = findCause(i, test, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** This one error (not what it wraps) says Postgres or the way to it is gone: a socket error, or a SQLSTATE of an outage. */
export function isPostgresUnreachableError(err: unknown): err is Error {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && (PG_UNAVAILABLE_CODE.test(code) || SOCKET_ERRORS.includes(code))) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return (
    PG_UNAVAILABLE_MESSAGE.some((p) => p.test(message)) || SOCKET_ERRORS.some((s) => message.includes(s))
  );
}

/**
 * A failure of the database rather than of what a statement carried: Postgres unreachable, or every connection of
 * the pool busy. Running the statement again for each input alone would only fail each again, and wait again.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return (
    findCause(err, isPostgresUnreachableError) !== undefined ||
    findCause(err, (e): e is PoolBusyError => e instanceof PoolBusyError) !== undefined
  );
}
