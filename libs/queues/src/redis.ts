import { Redis, type RedisOptions } from 'ioredis';
import { HOW_TO_START, type HealthCheck } from '@fleet/telemetry';

export { Redis } from 'ioredis';

/**
 * One ioredis connection. `maxRetriesPerRequest: null` is what BullMQ workers need (a blocking command must
 * wait out a Redis restart rather than fail); the connection retries forever with a capped delay.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    lazyConnect: false,
    ...options,
  });
}

/**
 * A connection for work someone is waiting on (an HTTP request, a producer's `add`): while Redis is
 * unreachable a command fails at once instead of queueing until Redis is back, so the caller can answer
 * (BullMQ's "failing fast when Redis is down": `enableOfflineQueue: false`). A command already sent when the
 * link dropped fails after one reconnect attempt instead of being re-sent forever.
 */
export function createRequestRedis(url: string, options: RedisOptions = {}): Redis {
  return createRedis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, ...options });
}

export function redisHealthCheck(redis: Redis): HealthCheck {
  return {
    name: 'redis',
    hint: HOW_TO_START.redis,
    async check() {
      if (redis.status !== 'ready') throw new Error(`redis connection is ${redis.status}`);
      await redis.ping();
    },
  };
}
