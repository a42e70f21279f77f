import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { createPgPool, postgresHealthCheck } from '@fleet/db';
import { closeMqtt, connectServiceMqtt, mqttHealthCheck } from '@fleet/messaging';
import { createRedis, ReaderHealth, redisHealthCheck, watchRedis, type Redis } from '@fleet/queues';
import { listenHttp, registerOpsRoutes, StopStack, type StopFunction } from '@fleet/runtime';
import { createMetricsRegistry, type Logger } from '@fleet/telemetry';
import type { VoiceWorkerConfig } from './config';
import { speechEnginesHealthCheck } from './health/speech-engines';
import { createProviders } from './providers/providers';
import { registerVisionRoutes } from './providers/vision/vision-routes';
import { startSessions } from './sessions/sessions-module';
import { startTurns } from './turns/turns-module';
import { createVoiceMetrics } from './voice-worker-metrics';

export interface VoiceWorkerHandle {
  ports: { http: number };
  stop: StopFunction;
}

/** Composition root of the voice worker. */
export async function startVoiceWorker(
  config: VoiceWorkerConfig,
  logger: Logger,
): Promise<VoiceWorkerHandle> {
  const stack = new StopStack(logger);
  try {
    const registry = createMetricsRegistry('voice-worker');
    const metrics = createVoiceMetrics(registry);
    const pool = createPgPool(config.DATABASE_URL, {
      onError: (err) => logger.warn({ err }, 'postgres pool error'),
    });
    stack.push('postgres', () => pool.end());
    // Blocking reads (BullMQ, session events, uplink) and pub/sub each need a connection of their own.
    const connect = (name: string): Redis => {
      const connection = createRedis(config.REDIS_URL);
      stack.push(`redis ${name}`, () => Promise.resolve(connection.disconnect()));
      return connection;
    };
    const redis = connect('commands');
    watchRedis(redis, logger);
    const mqtt = connectServiceMqtt({
      url: config.MQTT_URL,
      username: 'voice-worker',
      password: config.mqttPassword,
      clientId: `voice-worker-${randomBytes(4).toString('hex')}`,
      logger,
    });
    stack.push('mqtt', () => closeMqtt(mqtt));
    const providers = createProviders(config);
    stack.push('providers', () => Promise.resolve(providers.dispose()));

    const turns = await startTurns({ config, pool, redis, connect, mqtt, providers, metrics, logger, stack });
    const readers = new ReaderHealth();
    await startSessions({ config, redis, connect, mqtt, metrics, logger, stack, turns, readers });

    const http = Fastify({ logger: false });
    registerOpsRoutes(http, {
      registry,
      checks: [
        postgresHealthCheck(pool),
        redisHealthCheck(redis),
        mqttHealthCheck(mqtt),
        readers.healthCheck(),
        speechEnginesHealthCheck(config),
      ],
    });
    registerVisionRoutes(http, providers.vision, config.VISION_TOKEN);
    const httpPort = await listenHttp(http, config.BIND_HOST, config.HTTP_PORT);
    stack.push('http', () => http.close());
    logger.info(
      {
        ports: { http: httpPort },
        providers: { asr: providers.asr.name, llm: providers.llm.name, tts: providers.tts.name },
        vision: providers.vision !== undefined,
      },
      'voice worker listening',
    );
    return { ports: { http: httpPort }, stop: stack.stopAll };
  } catch (err) {
    await stack.stopAll();
    throw err;
  }
}
