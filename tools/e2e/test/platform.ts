import { Writable } from 'node:stream';
import { Pool } from 'pg';
import { loadAdminApiConfig, startAdminApi, type AdminApiHandle } from '@fleet/admin-api';
import { generateApiKey } from '@fleet/auth';
import {
  createDevice,
  FAST_TIMINGS,
  ListenAiDevice,
  type DeviceOptions,
  type ListenAiDeviceOptions,
  type SimDevice,
} from '@fleet/device-sim';
import { loadOrchestratorConfig, startOrchestrator, type OrchestratorHandle } from '@fleet/orchestrator';
import { createLogger } from '@fleet/telemetry';
import {
  createTestDatabase,
  startServiceProcess,
  startTestRedis,
  waitFor,
  type ServiceProcess,
  type TestDatabase,
  type TestRedis,
} from '@fleet/testing';

const SIGNING_KEY = 'e2e-device-signing-key-0123456789';
const SECRET = 'e2e-service-secret-0123456789abcd';
const QUEUE_PREFIX = 'e2e';

export interface E2ePlatform {
  db: TestDatabase;
  redis: TestRedis;
  /** The owner role, for reading what the services wrote. */
  sql: Pool;
  broker: ServiceProcess;
  brokerUrls: { http: string; mqtt: string; link: string };
  orchestrator: OrchestratorHandle;
  orchestratorUrl: string;
  api: AdminApiHandle;
  apiUrl: string;
  serviceSecret: string;
  /** The in-process services' log lines (debug level), parsed. */
  logLines: Record<string, unknown>[];
  /** A person with an API key of the `operator` role (or `role`). */
  operatorKey(role?: 'viewer' | 'operator' | 'admin'): Promise<string>;
  /** The voice worker as its own process, when asked for (`voiceWorkerEnv`). */
  voiceWorker: ServiceProcess | undefined;
  /** A simulated device booted through the broker's OTA endpoint, connected and discovered. */
  device(mac: string, options?: Partial<DeviceOptions>): Promise<SimDevice>;
  /** A simulated ListenAI device dialling the broker's link with a token, linked and discovered. */
  listenAiDevice(
    mac: string,
    token: string,
    options?: Partial<Omit<ListenAiDeviceOptions, 'mac' | 'token'>>,
  ): Promise<ListenAiDevice>;
  close(): Promise<void>;
}

/**
 * The platform as it runs, minus the voice worker: the broker as its own process (from dist/, as `npm start`
 * runs it), the orchestrator and the admin API in this process so that one in-memory span exporter sees both.
 */
export async function startE2ePlatform({
  orchestratorEnv = {},
  apiEnv = {},
  voiceWorkerEnv,
}: {
  orchestratorEnv?: Record<string, string>;
  apiEnv?: Record<string, string>;
  /** Start the voice worker too (from dist/, with these settings on top of the platform's). */
  voiceWorkerEnv?: Record<string, string>;
} = {}): Promise<E2ePlatform> {
  const logLines: Record<string, unknown>[] = [];
  const logSink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) logLines.push(JSON.parse(line) as never);
      done();
    },
  });
  const logger = createLogger('e2e', 'debug', logSink);
  const [db, redis] = await Promise.all([createTestDatabase(), startTestRedis()]);
  const broker = await startServiceProcess('broker', {
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX,
    BIND_HOST: '127.0.0.1',
    PUBLIC_HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_WS_PORT: '0',
    HTTP_PORT: '0',
    UDP_PORT: '0',
    LINK_PORT: '0',
    DEVICE_SIGNING_KEYS: SIGNING_KEY,
    SERVICE_CREDENTIALS: `orchestrator:${SECRET},voice-worker:${SECRET}`,
  });
  const brokerUrls = {
    http: `http://127.0.0.1:${broker.ports['http']}`,
    mqtt: `mqtt://127.0.0.1:${broker.ports['mqtt']}`,
    link: `ws://127.0.0.1:${broker.ports['link']}/v1/interaction`,
  };
  const orchestrator = await startOrchestrator(
    loadOrchestratorConfig({
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX,
      MQTT_URL: brokerUrls.mqtt,
      MQTT_PASSWORD: SECRET,
      BIND_HOST: '127.0.0.1',
      HTTP_PORT: '0',
      REPLICA_ID: 'e2e-orchestrator',
      LEASE_RENEW_MS: '200',
      LEASE_TTL_MS: '1500',
      SWEEP_INTERVAL_MS: '200',
      FIRMWARE_BASE_URL: brokerUrls.http,
      ...orchestratorEnv,
    }),
    logger,
  );
  const api = await startAdminApi(
    loadAdminApiConfig({
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX,
      BIND_HOST: '127.0.0.1',
      HTTP_PORT: '0',
      WEBHOOK_WORKER: 'false',
      PUBLIC_HTTP_URL: brokerUrls.http,
      PUBLIC_LINK_URL: brokerUrls.link,
      // Every JSON answer is parsed with its @fleet/api-contract schema: a drift answers 500 (DESIGN §8).
      VALIDATE_ANSWERS: 'true',
      ...apiEnv,
    }),
    logger,
  );
  const voiceWorker = voiceWorkerEnv
    ? await startServiceProcess('voice-worker', {
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX,
        MQTT_URL: brokerUrls.mqtt,
        MQTT_PASSWORD: SECRET,
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        WORKER_ID: 'e2e-voice-worker',
        ...voiceWorkerEnv,
      })
    : undefined;
  const sql = new Pool({ connectionString: db.ownerUrl, max: 2 });
  const devices: { stop(): Promise<void> }[] = [];
  const discovered = (mac: string) =>
    waitFor(
      async () =>
        (await sql.query('SELECT 1 FROM device WHERE id = $1 AND catalog_version_id IS NOT NULL', [mac]))
          .rowCount === 1,
      { what: `discovery of ${mac}`, timeoutMs: 15_000 },
    );

  return {
    db,
    redis,
    sql,
    broker,
    brokerUrls,
    orchestrator,
    orchestratorUrl: `http://127.0.0.1:${orchestrator.ports.http}`,
    api,
    apiUrl: `http://127.0.0.1:${api.ports.http}`,
    serviceSecret: SECRET,
    logLines,
    voiceWorker,
    async operatorKey(role = 'operator') {
      const { rows } = await sql.query<{ id: string }>(
        `INSERT INTO operator (id, email, name, role)
         VALUES (gen_random_uuid(), gen_random_uuid() || '@example.com', 'E2E Operator', $1) RETURNING id`,
        [role],
      );
      const key = generateApiKey();
      await sql.query(
        `INSERT INTO api_key (id, operator_id, name, prefix, secret_hash, role)
         VALUES (gen_random_uuid(), $1, 'e2e', $2, $3, $4)`,
        [rows[0]!.id, key.prefix, key.secretHash, role],
      );
      return key.plaintext;
    },
    async device(mac, options = {}) {
      const device = createDevice({
        otaUrl: `${brokerUrls.http}/xiaozhi/ota/`,
        mac,
        timings: FAST_TIMINGS,
        relayTools: 0,
        ...options,
      });
      devices.push(device);
      device.start();
      await device.waitUntilConnected();
      await waitFor(
        async () =>
          (await sql.query('SELECT 1 FROM device WHERE id = $1 AND catalog_version_id IS NOT NULL', [mac]))
            .rowCount === 1,
        { what: `discovery of ${mac}`, timeoutMs: 15_000 },
      );
      return device;
    },
    async listenAiDevice(mac, token, options = {}) {
      const device = new ListenAiDevice({
        mac,
        token,
        linkUrls: [brokerUrls.link],
        reconnectDelayMs: 50,
        ...options,
      });
      devices.push(device);
      device.start();
      await device.waitUntilLinked();
      await discovered(mac);
      return device;
    },
    async close() {
      await Promise.all(devices.map((d) => d.stop()));
      await voiceWorker?.stop();
      await api.stop();
      await orchestrator.stop();
      await broker.stop();
      await sql.end();
      await Promise.all([db.drop(), redis.stop()]);
    },
  };
}
