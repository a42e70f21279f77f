import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { createPgPool, type Pool } from '@fleet/db';
import { CallRequests, PlatformEventBus, WebhookNotifier } from '@fleet/platform-client';
import { createRequestRedis, watchRedis, type Redis } from '@fleet/queues';
import { createMetricsRegistry, type Logger } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { InputRefusals } from '../http/input-refusals';
import { ConnectionCloser } from './connection-closer';
import { ControlChannel } from './control-channel';
import { DEPENDENCY_WAIT_MS } from './dependency-wait';
import { Notices } from './notices';
import { Transactions } from './transactions';
import { LOGGER, METRICS_REGISTRY, PG_POOL, REDIS } from './tokens';
import { VoiceTurnQueue } from './voice-turn-queue';

/** Connections and process-wide services, built once from the validated configuration. */
@Global()
@Module({})
export class InfraModule {
  static forRoot(config: AdminApiConfig, logger: Logger): DynamicModule {
    const providers: Provider[] = [
      { provide: ADMIN_API_CONFIG, useValue: config },
      { provide: LOGGER, useValue: logger },
      { provide: METRICS_REGISTRY, useFactory: () => createMetricsRegistry('admin-api') },
      {
        provide: PG_POOL,
        useFactory: () =>
          createPgPool(config.DATABASE_URL, {
            onError: (err) => logger.warn({ err }, 'postgres pool error'),
            connectionTimeoutMs: DEPENDENCY_WAIT_MS,
          }),
      },
      {
        provide: REDIS,
        useFactory: () => {
          // Fails at once while Redis is down: a request is answered 503, never held until Redis is back.
          // Auto-pipelined: what concurrent requests send in one turn of the event loop (each request's rate-limit
          // counts, a health check's PING) goes out as one write. A write to Redis was the largest single cost of a
          // request under load. Nothing on this connection blocks (the event relay subscribes on its own).
          const redis = createRequestRedis(config.REDIS_URL, { enableAutoPipelining: true });
          watchRedis(redis, logger);
          return redis;
        },
      },
      {
        provide: CallRequests,
        useFactory: (pool: Pool, redis: Redis) =>
          new CallRequests(pool, redis, config.QUEUE_PREFIX, { wakeTimeoutMs: DEPENDENCY_WAIT_MS }),
        inject: [PG_POOL, REDIS],
      },
      {
        provide: WebhookNotifier,
        useFactory: (pool: Pool, redis: Redis) => new WebhookNotifier(pool, redis, config.QUEUE_PREFIX),
        inject: [PG_POOL, REDIS],
      },
      {
        provide: VoiceTurnQueue,
        useFactory: (redis: Redis) =>
          new VoiceTurnQueue('voice-turns', redis, config.QUEUE_PREFIX, {
            addTimeoutMs: DEPENDENCY_WAIT_MS,
          }),
        inject: [REDIS],
      },
      {
        provide: PlatformEventBus,
        useFactory: (redis: Redis) => new PlatformEventBus(redis),
        inject: [REDIS],
      },
      { provide: ControlChannel, useFactory: (redis: Redis) => new ControlChannel(redis), inject: [REDIS] },
      Transactions,
      Notices,
      ConnectionCloser,
      InputRefusals, // REST (the request policy) and /mcp refuse deep bodies and unstorable text alike
    ];
    return {
      module: InfraModule,
      providers,
      exports: providers.map((p) => (typeof p === 'function' ? p : p.provide)),
    };
  }
}
