import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface ChallengeBudgets {
  /** Challenges one address may be given for one MAC in a minute (a device asks again ~30 s after a failure). */
  perMacAndAddress: number;
  /** Challenges one address may be given in a minute, whatever the MACs (many devices may share a NAT). */
  perAddress: number;
}

/**
 * How many activation challenges an address may be given, shared by every broker replica through Redis (a
 * stranger cannot spread the attempts over replicas). While Redis is unreachable each replica counts alone.
 */
export class ChallengeRateLimits {
  private readonly limiters: { key: (mac: string, address: string) => string; limiter: RateLimiterRedis }[];

  constructor(redis: Redis, budgets: ChallengeBudgets, prefix: string) {
    const limiter = (name: string, points: number) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${prefix}:activation-challenges:${name}`,
        points,
        duration: 60,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ points, duration: 60 }),
      });
    this.limiters = [
      {
        key: (mac, address) => `${mac}|${address}`,
        limiter: limiter('mac-address', budgets.perMacAndAddress),
      },
      { key: (_mac, address) => address, limiter: limiter('address', budgets.perAddress) },
    ];
  }

  /** Takes one from each budget of this MAC and address; false once one of them is spent for the minute. */
  async allow(mac: string, address: string | undefined): Promise<boolean> {
    for (const { key, limiter } of this.limiters) {
      try {
        await limiter.consume(key(mac, address ?? 'unknown'));
      } catch (err) {
        if (err instanceof RateLimiterRes) return false;
        throw err;
      }
    }
    return true;
  }
}
