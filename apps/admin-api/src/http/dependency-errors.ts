import { findCause, isPostgresUnreachableError, PoolBusyError } from '@fleet/db';
import { DependencyUnavailableError, isRedisUnreachable } from '@fleet/queues';

export type Dependency = DependencyUnavailableError['dependency'];

/**
 * Which dependency an error says is unreachable, if any. A request that fails that way is answered 503 with
 * Retry-After (the client may try again), not 500 (something is wrong with the API). Redis commands on the
 * API's connections fail at once while Redis is down (createRequestRedis), so a socket error is Postgres's.
 */
export function unavailableDependency(err: unknown): Dependency | undefined {
  const found = findCause(
    err,
    (e): e is object =>
      e instanceof DependencyUnavailableError || isRedisUnreachable(e) || isPostgresUnreachableError(e),
  );
  if (found === undefined) return undefined;
  if (found instanceof DependencyUnavailableError) return found.dependency;
  return isRedisUnreachable(found) ? 'redis' : 'postgres';
}

/**
 * The PoolBusyError an error is or wraps: the API had more work at once than database connections while Postgres
 * kept answering (a 503 that says so, not "postgres is unreachable").
 */
export function poolBusy(err: unknown): PoolBusyError | undefined {
  return findCause(err, (e): e is PoolBusyError => e instanceof PoolBusyError);
}
