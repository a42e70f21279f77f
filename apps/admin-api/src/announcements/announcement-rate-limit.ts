import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from '@fleet/queues';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { ApiError } from '../http/api-error';
import { REDIS } from '../infra/tokens';
import type { GateRule } from './announcement-gate';

/**
 * Announcements a device may be sent and a person may send per window, counted in Redis so every replica spends
 * one budget (a device is not to be spammed through several API replicas, nor by several senders). The device is
 * counted first; the 11th of 10 is a 429 with Retry-After, as the API's own rate limit answers.
 */
@Injectable()
export class AnnouncementRateLimit {
  private readonly perDevice: RateLimiterRedis;
  private readonly perSender: RateLimiterRedis;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {
    const duration = config.ANNOUNCE_RATE_WINDOW_S;
    const prefix = `${config.QUEUE_PREFIX}:announce`;
    this.perDevice = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${prefix}:device`,
      points: config.ANNOUNCE_RATE_PER_DEVICE,
      duration,
    });
    this.perSender = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${prefix}:sender`,
      points: config.ANNOUNCE_RATE_PER_SENDER,
      duration,
    });
  }

  /** Spends one of the device's and one of the sender's announcements, or throws the 429. */
  async consume(deviceId: string, operatorId: string): Promise<GateRule[]> {
    await this.spend(this.perDevice, deviceId, `device ${deviceId}`, this.config.ANNOUNCE_RATE_PER_DEVICE);
    await this.spend(this.perSender, operatorId, 'this person', this.config.ANNOUNCE_RATE_PER_SENDER);
    const window = `${this.config.ANNOUNCE_RATE_WINDOW_S} s`;
    return [
      {
        rule: 'rate_per_device',
        result: 'passed',
        detail: `at most ${this.config.ANNOUNCE_RATE_PER_DEVICE} in ${window}`,
      },
      {
        rule: 'rate_per_sender',
        result: 'passed',
        detail: `at most ${this.config.ANNOUNCE_RATE_PER_SENDER} in ${window}`,
      },
    ];
  }

  /** Spends one of the sender's announcements alone (a campaign is one announcement of its creator's), or throws. */
  async consumeSender(operatorId: string): Promise<GateRule> {
    await this.spend(this.perSender, operatorId, 'this person', this.config.ANNOUNCE_RATE_PER_SENDER);
    return {
      rule: 'rate_per_sender',
      result: 'passed',
      detail: `at most ${this.config.ANNOUNCE_RATE_PER_SENDER} in ${this.config.ANNOUNCE_RATE_WINDOW_S} s`,
    };
  }

  private async spend(limiter: RateLimiterRedis, key: string, who: string, points: number): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retryAfterS = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw new ApiError(
        429,
        'too_many_announcements',
        `more than ${points} announcements in ${this.config.ANNOUNCE_RATE_WINDOW_S} s for ${who}; try again in ${retryAfterS} s`,
        undefined,
        retryAfterS,
      );
    }
  }
}
