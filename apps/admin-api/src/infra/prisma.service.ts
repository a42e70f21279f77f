import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { createPrismaClient, type PrismaClient } from '@fleet/db';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { DEPENDENCY_WAIT_MS } from './dependency-wait';

/** The one Prisma client of the API, closed with the app. */
@Injectable()
export class PrismaService implements OnModuleDestroy {
  readonly client: PrismaClient;

  constructor(@Inject(ADMIN_API_CONFIG) config: AdminApiConfig) {
    // As the API's pg pool: a Postgres that does not answer costs a request a second at most, then a 503.
    this.client = createPrismaClient(config.DATABASE_URL, { connectionTimeoutMs: DEPENDENCY_WAIT_MS });
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.$disconnect();
  }
}
