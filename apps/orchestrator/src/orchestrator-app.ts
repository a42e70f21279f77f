import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { createPgPool, postgresHealthCheck } from '@fleet/db';
import { closeMqtt, connectServiceMqtt, mqttHealthCheck } from '@fleet/messaging';
import { createRedis, redisHealthCheck, watchRedis } from '@fleet/queues';
import { listenHttp, registerOpsRoutes, StopStack, type StopFunction } from '@fleet/runtime';
import { createMetricsRegistry, type Logger } from '@fleet/telemetry';
import type { OrchestratorConfig } from './config';

export interface OrchestratorHandle {
  ports: { http: number };
  stop: StopFunction;
}

/** Composition root of the orchestrator. */
export async function startOrchestrator(
  config: OrchestratorConfig,
  logger: Logger,
): Promise<OrchestratorHandle> {
  const stack = new StopStack(logger);
  try {
    const registry = createMetricsRegistry('orchestrator');
    const pool = createPgPool(config.DATABASE_URL, {
      onError: (err) => logger.warn({ err }, 'postgres pool error'),
    });
    stack.push('postgres', () => pool.end());
    const redis = createRedis(config.REDIS_URL);
    watchRedis(redis, logger);
    stack.push('redis', () => Promise.resolve(redis.disconnect()));
    const mqtt = connectServiceMqtt({
      url: config.MQTT_URL,
      username: 'orchestrator',
      password: config.mqttPassword,
      clientId: `orchestrator-${randomBytes(4).toString('hex')}`,
      logger,
    });
    stack.push('mqtt', () => closeMqtt(mqtt));

    const http = Fastify({ logger: false });
    registerOpsRoutes(http, {
      registry,
      checks: [postgresHealthCheck(pool), redisHealthCheck(redis), mqttHealthCheck(mqtt)],
    });
    const httpPort = await listenHttp(http, config.BIND_HOST, config.HTTP_PORT);
    stack.push('http', () => http.close());
    logger.info({ ports: { http: httpPort } }, 'orchestrator listening');
    return { ports: { http: httpPort }, stop: stack.stopAll };
  } catch (err) {
    await stack.stopAll();
    throw err;
  }
}
