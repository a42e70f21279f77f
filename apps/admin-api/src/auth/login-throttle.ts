import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from '@fleet/queues';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { REDIS } from '../infra/tokens';

const WINDOW_S = 15 * 60;

/**
 * Failed sign-ins counted per (email, address) in Redis for 15 minutes: guessing passwords gets slow, while
 * someone elsewhere cannot lock a person out of their own account.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  /** Seconds until sign-in may be tried again, or undefined when it may be now. */
  async blockedFor(email: string, ip: string | undefined): Promise<number | undefined> {
    const key = this.key(email, ip);
    const [failures, ttl] = await Promise.all([this.redis.get(key), this.redis.ttl(key)]);
    if (Number(failures ?? 0) < this.config.LOGIN_MAX_FAILURES) return undefined;
    return ttl > 0 ? ttl : WINDOW_S;
  }

  async failed(email: string, ip: string | undefined): Promise<void> {
    const key = this.key(email, ip);
    await this.redis.multi().incr(key).expire(key, WINDOW_S).exec();
  }

  async succeeded(email: string, ip: string | undefined): Promise<void> {
    await this.redis.del(this.key(email, ip));
  }

  private key(email: string, ip: string | undefined): string {
    return `${this.config.QUEUE_PREFIX}:login-failures:${email.toLowerCase()}:${ip ?? '-'}`;
  }
}
