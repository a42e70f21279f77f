import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from '@fleet/queues';

/**
 * The per-device announcement budget, spent by the campaign runner from the same Redis counter as the API's
 * announcement route (same key prefix, same ANNOUNCE_RATE_* settings), so a device is not spammed through a
 * campaign and the route together.
 */
export class AnnouncementDeviceRate {
  private readonly limiter: RateLimiterRedis;

  constructor(
    redis: Redis,
    queuePrefix: string,
    readonly perDevice: number,
    readonly windowS: number,
  ) {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${queuePrefix}:announce:device`,
      points: perDevice,
      duration: windowS,
    });
  }

  /** Spends one of the device's announcements, or says in how many seconds one is free again. */
  async spend(deviceId: string): Promise<{ ok: true } | { ok: false; retryAfterS: number }> {
    try {
      await this.limiter.consume(deviceId);
      return { ok: true };
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      return { ok: false, retryAfterS: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
    }
  }
}
