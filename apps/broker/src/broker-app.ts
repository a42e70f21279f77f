import { Aedes } from 'aedes';
import Fastify from 'fastify';
import { createPgPool, postgresHealthCheck } from '@fleet/db';
import { createRedis, redisHealthCheck, watchRedis } from '@fleet/queues';
import { registerOpsRoutes, listenHttp, StopStack, type StopFunction } from '@fleet/runtime';
import { createMetricsRegistry, type Logger } from '@fleet/telemetry';
import type { BrokerConfig } from './config';
import { boundPort, closeServer, listenerHealthCheck, listenMqttTcp } from './mqtt/mqtt-listener';
import { ServiceIdentities } from './mqtt/service-identities';

export interface BrokerHandle {
  ports: { mqtt: number; http: number };
  stop: StopFunction;
}

/** Composition root of the broker: wires its parts and returns how to stop them. */
export async function startBroker(config: BrokerConfig, logger: Logger): Promise<BrokerHandle> {
  const stack = new StopStack(logger);
  try {
    const registry = createMetricsRegistry('broker');
    const pool = createPgPool(config.DATABASE_URL, {
      onError: (err) => logger.warn({ err }, 'postgres pool error'),
    });
    stack.push('postgres', () => pool.end());
    const redis = createRedis(config.REDIS_URL);
    watchRedis(redis, logger);
    stack.push('redis', () => Promise.resolve(redis.disconnect()));

    const services = new ServiceIdentities(config.serviceCredentials);
    const aedes = await Aedes.createBroker({ id: config.BROKER_ID });
    aedes.authenticate = (client, username, password, done) => {
      const service = services.authenticate(username, password);
      if (service) return done(null, true);
      const error = Object.assign(new Error('bad user name or password'), { returnCode: 4 });
      logger.info({ clientId: client.id }, 'connection refused: bad credentials');
      done(error, false);
    };
    stack.push('aedes', () => new Promise<void>((resolve) => aedes.close(() => resolve())));

    const mqttServer = await listenMqttTcp(aedes, config.BIND_HOST, config.MQTT_PORT);
    stack.push('mqtt listener', () => closeServer(mqttServer));

    const http = Fastify({ logger: false, bodyLimit: 256 * 1024 });
    registerOpsRoutes(http, {
      registry,
      checks: [postgresHealthCheck(pool), redisHealthCheck(redis), listenerHealthCheck('mqtt', mqttServer)],
    });
    const httpPort = await listenHttp(http, config.BIND_HOST, config.HTTP_PORT);
    stack.push('http', () => http.close());

    const ports = { mqtt: boundPort(mqttServer), http: httpPort };
    logger.info({ ports, brokerId: config.BROKER_ID }, 'broker listening');
    return { ports, stop: stack.stopAll };
  } catch (err) {
    await stack.stopAll();
    throw err;
  }
}
