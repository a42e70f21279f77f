import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { CallRequests } from '@fleet/platform-client';
import { createRedis, type Redis } from '@fleet/queues';
import {
  createTestDatabase,
  startServiceProcess,
  startTestRedis,
  type ServiceProcess,
  type TestDatabase,
  type TestRedis,
} from '@fleet/testing';
import { startTcpBalancer, type TcpBalancer } from '../src/tcp-balancer';

// deploy/compose.yaml on loopback: broker replicas behind a TCP load balancer (MQTT and the device HTTP), each with
// its own UDP port, orchestrator replicas that reach the brokers through the balancer, one Postgres, one Redis. The
// services are processes from dist/, so a test can SIGKILL one.

export const SIGNING_KEY = 'deploy-check-signing-key-0123456789';
const EFUSE_WRAPPING_KEY = 'de'.repeat(32);
const SECRETS = {
  orchestrator: 'deploy-check-orchestrator-0123',
  'voice-worker': 'deploy-check-voice-worker-0123',
};

export interface Topology {
  db: TestDatabase;
  redis: TestRedis;
  /** The owner role's pool, to read what happened. */
  sql: Pool;
  calls: CallRequests;
  mqttBalancer: TcpBalancer;
  httpBalancer: TcpBalancer;
  brokers: Map<string, ServiceProcess>;
  orchestrators: Map<string, ServiceProcess>;
  otaUrl: string;
  operatorId: string;
  close(): Promise<void>;
}

export async function startTopology({
  brokers = ['broker-a', 'broker-b'],
  orchestrators = ['orchestrator-a', 'orchestrator-b'],
} = {}): Promise<Topology> {
  const [db, redis, mqttBalancer, httpBalancer] = await Promise.all([
    createTestDatabase(),
    startTestRedis(),
    startTcpBalancer(),
    startTcpBalancer(),
  ]);
  const common = {
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    BIND_HOST: '127.0.0.1',
    HTTP_PORT: '0',
  };
  const publicHttp = `http://127.0.0.1:${httpBalancer.port}`;

  // Like broker-1 and broker-2 in compose.yaml: one public MQTT and HTTP address (the balancer's), each its own UDP.
  const brokerProcesses = new Map<string, ServiceProcess>();
  await Promise.all(
    brokers.map(async (id) => {
      const broker = await startServiceProcess('broker', {
        ...common,
        BROKER_ID: id,
        MQTT_PORT: '0',
        MQTT_WS_PORT: '0',
        UDP_PORT: '0', // advertised as bound: each replica its own port
        LINK_PORT: '0',
        PUBLIC_HOST: '127.0.0.1',
        PUBLIC_MQTT_PORT: String(mqttBalancer.port),
        PUBLIC_UDP_HOST: '127.0.0.1',
        PUBLIC_HTTP_URL: publicHttp,
        DEVICE_SIGNING_KEYS: SIGNING_KEY,
        EFUSE_WRAPPING_KEYS: EFUSE_WRAPPING_KEY,
        SERVICE_CREDENTIALS: Object.entries(SECRETS)
          .map(([name, secret]) => `${name}:${secret}`)
          .join(','),
      });
      brokerProcesses.set(id, broker);
    }),
  );
  const list = [...brokerProcesses];
  mqttBalancer.setBackends(list.map(([name, p]) => ({ name, port: p.ports['mqtt']! })));
  httpBalancer.setBackends(list.map(([name, p]) => ({ name, port: p.ports['http']! })));

  const orchestratorProcesses = new Map<string, ServiceProcess>();
  await Promise.all(
    orchestrators.map(async (id) => {
      const orchestrator = await startServiceProcess('orchestrator', {
        ...common,
        REPLICA_ID: id,
        MQTT_URL: `mqtt://127.0.0.1:${mqttBalancer.port}`,
        MQTT_PASSWORD: SECRETS.orchestrator,
        // Production: the key every seal is signed with must be configured (DESIGN §6).
        SEAL_SIGNING_KEY: Buffer.alloc(32, 9).toString('base64'),
        FIRMWARE_BASE_URL: publicHttp,
        // failover within seconds instead of the production 10 s lease
        LEASE_RENEW_MS: '200',
        LEASE_TTL_MS: '1500',
        SWEEP_INTERVAL_MS: '200',
        DISCOVERY_TIMEOUT_MS: '3000',
      });
      orchestratorProcesses.set(id, orchestrator);
    }),
  );

  const sql = new Pool({ connectionString: db.ownerUrl, max: 4 });
  const appPool = new Pool({ connectionString: db.url, max: 4 });
  const queueRedis: Redis = createRedis(redis.url);
  const calls = new CallRequests(appPool, queueRedis, 'fleet');
  const operatorId = randomUUID();
  await sql.query(
    `INSERT INTO operator (id, email, name, role) VALUES ($1, $2, 'Deploy Check', 'operator')`,
    [operatorId, `${operatorId}@example.com`],
  );

  return {
    db,
    redis,
    sql,
    calls,
    mqttBalancer,
    httpBalancer,
    brokers: brokerProcesses,
    orchestrators: orchestratorProcesses,
    otaUrl: `${publicHttp}/xiaozhi/ota/`,
    operatorId,
    async close() {
      for (const p of [...orchestratorProcesses.values(), ...brokerProcesses.values()])
        await p.stop('SIGKILL');
      await calls.close();
      queueRedis.disconnect();
      await Promise.all([sql.end(), appPool.end(), mqttBalancer.close(), httpBalancer.close()]);
      await Promise.all([db.drop(), redis.stop()]);
    },
  };
}
