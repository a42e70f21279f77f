import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Pool } from 'pg';
import { generateApiKey } from '@fleet/auth';
import { runMigrations } from '@fleet/db';
import { createFleet, FAST_TIMINGS, type Fleet } from '@fleet/device-sim';
import {
  createTestDatabase,
  freePort,
  startServiceProcess,
  startTestRedis,
  waitFor,
  type ServiceProcess,
  type TestRedis,
} from '@fleet/testing';
import { Links, SERVICES, type ServiceName } from './links';
import { startPrivatePostgres, type ChaosPostgres } from './private-postgres';

const SIGNING_KEY = 'chaos-device-signing-key-0123456789';
const SECRETS = {
  orchestrator: 'chaos-orchestrator-secret-0123',
  'voice-worker': 'chaos-voice-secret-012345',
};

export interface ChaosPlatform {
  postgres: ChaosPostgres;
  redis: TestRedis;
  links: Links;
  /** The owner role, straight to Postgres (not through a link the case may cut). */
  sql: Pool;
  fleet: Fleet;
  apiUrl(): string;
  operatorKey: string;
  service(name: ServiceName): ServiceProcess;
  /** SIGKILL, like a node lost or an OOM kill. */
  kill(name: ServiceName): Promise<void>;
  start(name: ServiceName): Promise<void>;
  close(): Promise<void>;
}

export interface ChaosPlatformOptions {
  devices: number;
  /** A Postgres cluster of the suite's own, which the Postgres case restarts (else a clone on the shared one). */
  privatePostgres?: boolean;
}

/**
 * The four services as processes from dist/ (as `npm start` runs them), each reaching Postgres, Redis and the
 * broker through links of its own (TCP proxies a case can cut), a Redis of the suite's own (a case restarts it),
 * and a simulated fleet on the broker. Timings are short so that failover takes seconds, not the production 10 s.
 */
export async function startChaosPlatform(options: ChaosPlatformOptions): Promise<ChaosPlatform> {
  const redis = await startTestRedis();
  const { postgres, database } = await postgresFor(options);
  const [mqttPort, httpPort, udpPort] = [await freePort(), await freePort(), await freePort()];
  const links = await Links.start({ postgres: postgres.port, redis: redis.port, broker: mqttPort });
  const appUrl = (service: ServiceName) => {
    const u = new URL(postgres.url(database, 'fleet_app'));
    u.port = String(links.port(service, 'postgres'));
    return u.toString();
  };
  const common = (service: ServiceName) => ({
    DATABASE_URL: appUrl(service),
    REDIS_URL: `redis://127.0.0.1:${links.port(service, 'redis')}`,
    BIND_HOST: '127.0.0.1',
    HTTP_PORT: '0',
  });
  const brokerHttp = `http://127.0.0.1:${httpPort}`;
  const mqttVia = (service: ServiceName) => `mqtt://127.0.0.1:${links.port(service, 'broker')}`;
  const envs: Record<ServiceName, Record<string, string>> = {
    broker: {
      ...common('broker'),
      BROKER_ID: 'chaos-broker',
      PUBLIC_HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      MQTT_WS_PORT: '0',
      // No ListenAI devices here; the default 8086 would collide with any other platform on the machine.
      LINK_PORT: '0',
      HTTP_PORT: String(httpPort),
      UDP_PORT: String(udpPort),
      REPLICA_LIVENESS_TTL_MS: '1500',
      DEVICE_SIGNING_KEYS: SIGNING_KEY,
      SERVICE_CREDENTIALS: Object.entries(SECRETS)
        .map(([name, secret]) => `${name}:${secret}`)
        .join(','),
    },
    orchestrator: {
      ...common('orchestrator'),
      REPLICA_ID: 'chaos-orchestrator',
      MQTT_URL: mqttVia('orchestrator'),
      MQTT_PASSWORD: SECRETS.orchestrator,
      FIRMWARE_BASE_URL: brokerHttp,
      LEASE_RENEW_MS: '200',
      LEASE_TTL_MS: '1500',
      SWEEP_INTERVAL_MS: '200',
      SWEEP_IDLE_MS: '1000',
      CAMPAIGN_TICK_MS: '200',
      DISCOVERY_TIMEOUT_MS: '3000',
    },
    'voice-worker': {
      ...common('voice-worker'),
      WORKER_ID: 'chaos-voice-worker',
      MQTT_URL: mqttVia('voice-worker'),
      MQTT_PASSWORD: SECRETS['voice-worker'],
      WORKER_LIVENESS_TTL_MS: '2000',
      TURN_LOST_AFTER_MS: '15000',
    },
    'admin-api': { ...common('admin-api'), WEBHOOK_WORKER: 'false', PUBLIC_HTTP_URL: brokerHttp },
  };
  const running = new Map<ServiceName, ServiceProcess>();
  const start = async (name: ServiceName) => {
    running.set(name, await startServiceProcess(name, envs[name], 30_000));
  };
  for (const name of SERVICES) await start(name);

  const sql = new Pool({ connectionString: postgres.url(database), max: 4 });
  sql.on('error', () => undefined); // a Postgres restart cuts idle clients; the next query reconnects
  const operatorKey = await createOperator(sql);
  const fleet = createFleet({
    count: options.devices,
    otaUrl: `${brokerHttp}/xiaozhi/ota/`,
    timings: FAST_TIMINGS,
    relayTools: 0,
    macPrefix: '02:c4:05',
    recordLimit: 20_000,
  });
  await fleet.start();
  await waitFor(
    async () =>
      (
        await sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM device WHERE online AND catalog_version_id IS NOT NULL',
        )
      ).rows[0]!.n === options.devices,
    { what: 'every device online and discovered', timeoutMs: 60_000, intervalMs: 200 },
  );

  return {
    postgres,
    redis,
    links,
    sql,
    fleet,
    operatorKey,
    apiUrl: () => `http://127.0.0.1:${running.get('admin-api')!.ports['http']}`,
    service: (name) => running.get(name)!,
    async kill(name) {
      await running.get(name)?.stop('SIGKILL');
    },
    start,
    async close() {
      await fleet.stop();
      for (const name of [...SERVICES].reverse()) await running.get(name)?.stop('SIGKILL');
      await sql.end();
      await links.close();
      await redis.stop();
      if (options.privatePostgres) await postgres.stop();
      else await dropDatabase(database);
    },
  };
}

async function postgresFor(
  options: ChaosPlatformOptions,
): Promise<{ postgres: ChaosPostgres; database: string }> {
  if (options.privatePostgres) {
    const postgres = await startPrivatePostgres();
    await runMigrations(postgres.url('fleet'), join(__dirname, '../../../prisma/migrations'));
    return { postgres, database: 'fleet' };
  }
  const db = await createTestDatabase();
  const shared = new URL(db.ownerUrl);
  dropLater.set(db.name, () => db.drop());
  return {
    database: db.name,
    postgres: {
      host: shared.hostname,
      port: Number(shared.port || 5432),
      url: (database, role = shared.username) => {
        const u = new URL(db.ownerUrl);
        u.pathname = `/${database}`;
        u.username = role;
        return u.toString();
      },
      stop: () => db.drop(),
    },
  };
}

const dropLater = new Map<string, () => Promise<void>>();
async function dropDatabase(name: string): Promise<void> {
  await dropLater.get(name)?.();
  dropLater.delete(name);
}

async function createOperator(sql: Pool): Promise<string> {
  const id = randomUUID();
  await sql.query(
    `INSERT INTO operator (id, email, name, role) VALUES ($1, $2, 'Chaos Operator', 'operator')`,
    [id, `${id}@example.com`],
  );
  const key = generateApiKey();
  await sql.query(
    `INSERT INTO api_key (id, operator_id, name, prefix, secret_hash, role)
     VALUES (gen_random_uuid(), $1, 'chaos', $2, $3, 'operator')`,
    [id, key.prefix, key.secretHash],
  );
  return key.plaintext;
}
