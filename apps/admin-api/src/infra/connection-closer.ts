import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import { CallRequests, WebhookNotifier } from '@fleet/platform-client';
import type { Redis } from '@fleet/queues';
import { VoiceTurnQueue } from './voice-turn-queue';
import { PG_POOL, REDIS } from './tokens';

/** Closes the queues, then the raw connections, when the app closes (every query of the API runs on its pg pool). */
@Injectable()
export class ConnectionCloser implements OnApplicationShutdown {
  private closed = false;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly calls: CallRequests,
    private readonly webhooks: WebhookNotifier,
    private readonly voiceTurns: VoiceTurnQueue,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([this.calls.close(), this.webhooks.close(), this.voiceTurns.close()]);
    this.redis.disconnect();
    await this.pool.end();
  }
}
