import { Writable } from 'node:stream';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { Pool } from 'pg';
import {
  createTestDatabase,
  startServiceProcess,
  startTestRedis,
  type ServiceProcess,
  type TestDatabase,
  type TestRedis,
} from '@fleet/testing';
import { createLogger } from '@fleet/telemetry';
import { startBroker, type BrokerHandle } from '../src/broker-app';
import { loadBrokerConfig } from '../src/config';

export const SERVICE_SECRETS = {
  orchestrator: 'orchestrator-secret-0123456789',
  'voice-worker': 'voice-worker-secret-0123456789',
} as const;
export const SIGNING_KEY = 'current-signing-key-0123456789';
/** The AES-256 key that seals imported eFuse keys in these tests (EFUSE_WRAPPING_KEYS). */
export const WRAPPING_KEY = Buffer.alloc(32, 0x5a);

export interface BrokerFixture {
  db: TestDatabase;
  redis: TestRedis;
  /** The owner role's pool, to look at and prepare rows. */
  sql: Pool;
  broker: BrokerHandle;
  httpUrl: string;
  mqttUrl: string;
  /** Every line the brokers logged (debug and up): tests look for what must never be in them. */
  logs: string[];
  /** Another replica sharing this fixture's database and Redis. */
  startReplica(env?: Record<string, string>): Promise<BrokerHandle>;
  /**
   * Another replica as its own process from dist/ (one a test can SIGKILL, or start with `openFiles` as its
   * RLIMIT_NOFILE); the caller stops it.
   */
  startReplicaProcess(env: Record<string, string>, options?: { openFiles?: number }): Promise<ServiceProcess>;
  connectService(
    name: keyof typeof SERVICE_SECRETS,
    options?: IClientOptions,
    port?: number,
  ): Promise<MqttClient>;
  close(): Promise<void>;
}

/** A real broker on ephemeral ports, with its own database and Redis. */
export async function startBrokerFixture(env: Record<string, string> = {}): Promise<BrokerFixture> {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('broker-test', 'debug', sink);
  const [db, redis] = await Promise.all([createTestDatabase(), startTestRedis()]);
  const envFor = (extra: Record<string, string>) => ({
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    BIND_HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_WS_PORT: '0',
    HTTP_PORT: '0',
    UDP_PORT: '0',
    LINK_PORT: '0',
    DEVICE_SIGNING_KEYS: SIGNING_KEY,
    EFUSE_WRAPPING_KEYS: WRAPPING_KEY.toString('hex'),
    SERVICE_CREDENTIALS: Object.entries(SERVICE_SECRETS)
      .map(([name, secret]) => `${name}:${secret}`)
      .join(','),
    ...env,
    ...extra,
  });
  const configFor = (extra: Record<string, string>) => loadBrokerConfig(envFor(extra));
  const replicas: BrokerHandle[] = [];
  const broker = await startBroker(configFor({}), logger);
  replicas.push(broker);
  const clients: MqttClient[] = [];
  const sql = new Pool({ connectionString: db.ownerUrl, max: 2 });
  return {
    db,
    redis,
    sql,
    broker,
    httpUrl: `http://127.0.0.1:${broker.ports.http}`,
    mqttUrl: `mqtt://127.0.0.1:${broker.ports.mqtt}`,
    logs,
    async startReplica(extra = {}) {
      const replica = await startBroker(
        configFor({ BROKER_ID: `replica-${replicas.length}`, ...extra }),
        logger,
      );
      replicas.push(replica);
      return replica;
    },
    startReplicaProcess(extra, options = {}) {
      return startServiceProcess('broker', envFor(extra), 20_000, options);
    },
    async connectService(name, options = {}, port = broker.ports.mqtt) {
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
        username: name,
        password: SERVICE_SECRETS[name],
        clientId: `${name}-${Math.random().toString(16).slice(2)}`,
        reconnectPeriod: 0,
        ...options,
      });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.endAsync(true)));
      for (const replica of replicas.reverse()) await replica.stop();
      await sql.end();
      await Promise.all([db.drop(), redis.stop()]);
    },
  };
}
