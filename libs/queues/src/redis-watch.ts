import type { Redis } from 'ioredis';
import { HOW_TO_START, type Logger } from '@fleet/telemetry';

/**
 * Logs when Redis becomes unreachable (once, with how to start it) and when it is back. ioredis retries by
 * itself; without this a service would either stay silent or log every retry.
 */
export function watchRedis(redis: Redis, logger: Logger): void {
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger.error({ err: err.message }, `Redis is unreachable; ${HOW_TO_START.redis}`);
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info('Redis is reachable again');
  });
}
