import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import type { Redis } from '@fleet/queues';
import { PG_POOL, REDIS } from './tokens';

/** Closes the raw connections when the app closes (Prisma closes itself in PrismaService). */
@Injectable()
export class ConnectionCloser implements OnApplicationShutdown {
  private closed = false;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.redis.disconnect();
    await this.pool.end();
  }
}
