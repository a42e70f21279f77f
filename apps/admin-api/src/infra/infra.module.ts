import { Global, Module, type DynamicModule } from '@nestjs/common';
import { createPgPool } from '@fleet/db';
import { createRedis, watchRedis } from '@fleet/queues';
import { createMetricsRegistry, type Logger } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { ConnectionCloser } from './connection-closer';
import { PrismaService } from './prisma.service';
import { LOGGER, METRICS_REGISTRY, PG_POOL, REDIS } from './tokens';

/** Connections and process-wide services, built once from the validated configuration. */
@Global()
@Module({})
export class InfraModule {
  static forRoot(config: AdminApiConfig, logger: Logger): DynamicModule {
    const providers = [
      { provide: ADMIN_API_CONFIG, useValue: config },
      { provide: LOGGER, useValue: logger },
      { provide: METRICS_REGISTRY, useFactory: () => createMetricsRegistry('admin-api') },
      {
        provide: PG_POOL,
        useFactory: () =>
          createPgPool(config.DATABASE_URL, {
            onError: (err) => logger.warn({ err }, 'postgres pool error'),
          }),
      },
      {
        provide: REDIS,
        useFactory: () => {
          const redis = createRedis(config.REDIS_URL);
          watchRedis(redis, logger);
          return redis;
        },
      },
      PrismaService,
      ConnectionCloser,
    ];
    return {
      module: InfraModule,
      providers,
      exports: providers.map((p) => ('provide' in p ? p.provide : p)),
    };
  }
}
