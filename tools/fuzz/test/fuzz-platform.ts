import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { generateApiKey } from '@fleet/auth';
import { createDevice, FAST_TIMINGS, ListenAiDevice, type SimDevice } from '@fleet/device-sim';
import { CallRequests } from '@fleet/platform-client';
import { createRequestRedis, type Redis } from '@fleet/queues';
import {
  createTestDatabase,
  registerListenAiDevice,
  scrapeMetrics,
  startServiceProcess,
  startTestRedis,
  waitFor,
  type Sample,
  type ServiceProcess,
  type TestDatabase,
  type TestRedis,
} from '@fleet/testing';

const SIGNING_KEY = 'fuzz-device-signing-key-0123456789';
const SECRET = 'fuzz-orchestrator-secret-0123456789';
const QUEUE_PREFIX = 'fuzz';

export type FuzzService = 'broker' | 'orchestrator' | 'admin-api';

export interface CounterSelector {
  name: string;
  outcomes?: readonly string[];
  notOutcomes?: readonly string[];
}

function selected(sample: Sample, selectors: readonly CounterSelector[]): boolean {
  const outcome =
    sample.labels['outcome'] ?? sample.labels['reason'] ?? sample.labels['kind'] ?? sample.labels['status'];
  return selectors.some(
    (c) =>
      c.name === sample.name &&
      (!c.outcomes || (outcome !== undefined && c.outcomes.includes(outcome))) &&
      !(c.notOutcomes && outcome !== undefined && c.notOutcomes.includes(outcome)),
  );
}

export interface FuzzPlatform {
  sql: Pool;
  urls: {
    brokerHttp: string;
    mqttPort: number;
    wsPort: number;
    linkPort: number;
    udpPort: number;
    api: string;
  };
  operatorKey: string;
  operatorId: string;
  calls: CallRequests;
  /** Every service still running and answering /healthz 200; names the first that is not. */
  assertUp(): Promise<void>;
  /** The sum of these counters on a service's /metrics (only the samples whose outcome each one names). */
  counters(service: FuzzService, counters: readonly CounterSelector[]): Promise<number>;
  /** A simulated xiaozhi device, booted through the OTA endpoint, connected and discovered. */
  xiaozhi(mac: string): Promise<SimDevice>;
  /** A registered ListenAI device, linked and discovered. */
  listenAi(mac: string): Promise<{ device: ListenAiDevice; token: string }>;
  /** A call through the same producer the API and the voice assistant use; resolves with its sealed verdict. */
  callAndSeal(
    deviceId: string,
    tool: string,
    args?: Record<string, unknown>,
    replyTimeoutMs?: number,
  ): Promise<string>;
  close(): Promise<void>;
}

/**
 * The broker, the orchestrator and the admin API as processes from dist/ (as `npm start` runs them), so that an
 * input that kills one is seen as a dead process, not a failed test runner. No voice worker: no fuzz target
 * reaches it but through the broker's UDP edge, which is the broker's.
 */
export async function startFuzzPlatform(): Promise<FuzzPlatform> {
  const [db, redis] = await Promise.all([createTestDatabase(), startTestRedis()]);
  const common = {
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX,
    BIND_HOST: '127.0.0.1',
    HTTP_PORT: '0',
  };
  const broker = await startServiceProcess('broker', {
    ...common,
    BROKER_ID: 'fuzz-broker',
    PUBLIC_HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_WS_PORT: '0',
    UDP_PORT: '0',
    LINK_PORT: '0',
    DEVICE_SIGNING_KEYS: SIGNING_KEY,
    SERVICE_CREDENTIALS: `orchestrator:${SECRET}`,
  });
  const brokerHttp = `http://127.0.0.1:${broker.ports['http']}`;
  const orchestrator = await startServiceProcess('orchestrator', {
    ...common,
    REPLICA_ID: 'fuzz-orchestrator',
    MQTT_URL: `mqtt://127.0.0.1:${broker.ports['mqtt']}`,
    MQTT_PASSWORD: SECRET,
    FIRMWARE_BASE_URL: brokerHttp,
    LEASE_RENEW_MS: '200',
    LEASE_TTL_MS: '1500',
    SWEEP_INTERVAL_MS: '100',
    SWEEP_IDLE_MS: '500',
    DISCOVERY_TIMEOUT_MS: '3000',
  });
  const api = await startServiceProcess('admin-api', {
    ...common,
    WEBHOOK_WORKER: 'false',
    PUBLIC_HTTP_URL: brokerHttp,
  });
  const services: Record<FuzzService, ServiceProcess> = { broker, orchestrator, 'admin-api': api };
  const sql = new Pool({ connectionString: db.ownerUrl, max: 4 });
  const { operatorId, operatorKey } = await createOperator(sql);
  const producerPool = new Pool({ connectionString: db.url, max: 4 });
  const producerRedis: Redis = createRequestRedis(redis.url);
  const calls = new CallRequests(producerPool, producerRedis, QUEUE_PREFIX);
  const stoppers: (() => Promise<void>)[] = [];
  const httpOf = (s: FuzzService) => `http://127.0.0.1:${services[s].ports['http']}`;

  const discovered = (mac: string) =>
    waitFor(
      async () =>
        (await sql.query('SELECT 1 FROM device WHERE id = $1 AND catalog_version_id IS NOT NULL', [mac]))
          .rowCount === 1,
      { what: `discovery of ${mac}`, timeoutMs: 20_000 },
    );

  return {
    sql,
    urls: {
      brokerHttp,
      mqttPort: broker.ports['mqtt']!,
      wsPort: broker.ports['ws']!,
      linkPort: broker.ports['link']!,
      udpPort: broker.ports['udp']!,
      api: httpOf('admin-api'),
    },
    operatorKey,
    operatorId,
    calls,
    async assertUp() {
      for (const [name, service] of Object.entries(services)) {
        if (service.child.exitCode !== null || service.child.signalCode !== null) {
          throw new Error(
            `${name} exited (${service.child.exitCode ?? service.child.signalCode}):\n${tail(service)}`,
          );
        }
        const answer = await fetch(`${httpOf(name as FuzzService)}/healthz`, {
          signal: AbortSignal.timeout(5_000),
        });
        if (answer.status !== 200) throw new Error(`${name} /healthz answered ${answer.status}`);
      }
    },
    async counters(service, selectors) {
      const samples = await scrapeMetrics(httpOf(service));
      return samples.filter((s) => selected(s, selectors)).reduce((sum, s) => sum + s.value, 0);
    },
    async xiaozhi(mac) {
      const device = createDevice({
        otaUrl: `${brokerHttp}/xiaozhi/ota/`,
        mac,
        timings: FAST_TIMINGS,
        relayTools: 0,
      });
      stoppers.push(() => device.stop());
      device.start();
      await device.waitUntilConnected();
      await discovered(mac);
      return device;
    },
    async listenAi(mac) {
      const { token } = await registerListenAiDevice(sql, mac);
      const device = new ListenAiDevice({
        mac,
        token,
        linkUrls: [`ws://127.0.0.1:${broker.ports['link']}`],
        reconnectDelayMs: 50,
      });
      stoppers.push(() => device.stop());
      device.start();
      await device.waitUntilLinked();
      await discovered(mac);
      return { device, token };
    },
    async callAndSeal(deviceId, tool, args = {}, replyTimeoutMs = 2_000) {
      const asked = await calls.request({
        deviceId,
        tool,
        arguments: args,
        origin: 'operator',
        operatorId,
        reason: 'fuzz',
        replyTimeoutMs,
        deliveryDeadlineMs: 30_000,
      });
      if (!asked.ok) throw new Error(`call refused: ${asked.message}`);
      let verdict: string | null = null;
      await waitFor(
        async () => {
          const { rows } = await sql.query<{ verdict: string | null }>(
            'SELECT verdict FROM call WHERE id = $1',
            [asked.callId],
          );
          verdict = rows[0]?.verdict ?? null;
          return verdict !== null;
        },
        {
          what: `the verdict of call ${asked.callId} (${tool} on ${deviceId})`,
          timeoutMs: replyTimeoutMs + 15_000,
        },
      );
      return verdict!;
    },
    async close() {
      await Promise.all(stoppers.map((stop) => stop()));
      await Promise.all([api.stop(), orchestrator.stop()]);
      await broker.stop();
      await Promise.all([sql.end(), producerPool.end()]);
      producerRedis.disconnect();
      await Promise.all([db.drop(), redis.stop()]);
    },
  };
}

function tail(service: ServiceProcess): string {
  return service.logs.slice(-15).join('\n');
}

async function createOperator(sql: Pool): Promise<{ operatorId: string; operatorKey: string }> {
  const operatorId = randomUUID();
  await sql.query(
    `INSERT INTO operator (id, email, name, role) VALUES ($1, $2, 'Fuzz Operator', 'operator')`,
    [operatorId, `${operatorId}@example.com`],
  );
  const key = generateApiKey();
  await sql.query(
    `INSERT INTO api_key (id, operator_id, name, prefix, secret_hash, role)
     VALUES (gen_random_uuid(), $1, 'fuzz', $2, $3, 'operator')`,
    [operatorId, key.prefix, key.secretHash],
  );
  return { operatorId, operatorKey: key.plaintext };
}

export type { TestDatabase, TestRedis };
