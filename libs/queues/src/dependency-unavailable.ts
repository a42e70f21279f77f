/** A dependency the caller needs is unreachable right now: worth a 503 and a retry, not a 500. */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: 'redis' | 'postgres' | 'broker',
    message: string,
  ) {
    super(message);
    this.name = 'DependencyUnavailableError';
  }
}

// What ioredis says when a command cannot reach Redis: the offline queue is off (createRequestRedis), the
// command gave up after its retries, or the connection was closed under it.
const REDIS_UNREACHABLE = [
  /enableOfflineQueue/,
  /Reached the max retries per request limit/,
  /^Connection is closed\.?$/,
];

/** Whether an error thrown by an ioredis command (or BullMQ over one) means Redis is unreachable. */
export function isRedisUnreachable(err: unknown): boolean {
  if (err instanceof DependencyUnavailableError) return err.dependency === 'redis';
  const e = err as { name?: unknown; message?: unknown } | null;
  if (!e || typeof e.message !== 'string') return false;
  return e.name === 'MaxRetriesPerRequestError' || REDIS_UNREACHABLE.some((p) => p.test(e.message as string));
}

/** Rejects with a DependencyUnavailableError when `promise` has not settled within `ms`. */
export function withinDeadline<T>(
  promise: Promise<T>,
  ms: number | undefined,
  dependency: DependencyUnavailableError['dependency'],
  what: string,
): Promise<T> {
  if (ms === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DependencyUnavailableError(dependency, `${what} did not finish within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
