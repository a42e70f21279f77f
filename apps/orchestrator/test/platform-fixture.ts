import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import {
  createDevice,
  FAST_TIMINGS,
  ListenAiDevice,
  type DeviceOptions,
  type ListenAiDeviceOptions,
  type SimDevice,
} from '@fleet/device-sim';
import { CallRequests, type CallRequest } from '@fleet/platform-client';
import { createRedis, type Redis } from '@fleet/queues';
import { createLogger } from '@fleet/telemetry';
import {
  createTestDatabase,
  registerListenAiDevice,
  startServiceProcess,
  startTestRedis,
  waitFor,
  type ServiceProcess,
  type TestDatabase,
  type TestRedis,
} from '@fleet/testing';
import { loadOrchestratorConfig } from '../src/config';
import { startOrchestrator, type OrchestratorHandle } from '../src/orchestrator-app';

const SIGNING_KEY = 'orchestrator-test-signing-key-0123';
const SECRET = 'orchestrator-test-secret-0123456789';
/** The broker's password for every service of the test platform (a test may speak as the voice worker). */
export const SERVICE_SECRET = SECRET;

export interface EvidenceRow {
  stage: string;
  seq: string;
  payload: Record<string, unknown>;
}

export interface CallRow {
  id: string;
  state: string;
  verdict: string | null;
  verdict_reason: string | null;
  parent_call_id: string | null;
  result: unknown;
}

export interface Platform {
  db: TestDatabase;
  redis: TestRedis;
  sql: Pool;
  broker: ServiceProcess;
  otaUrl: string;
  firmwareBaseUrl: string;
  orchestrators: OrchestratorHandle[];
  calls: CallRequests;
  startOrchestrator(replicaId?: string, env?: Record<string, string>): Promise<OrchestratorHandle>;
  /** An orchestrator replica as its own process (to be killed for real). */
  startOrchestratorProcess(replicaId: string): Promise<ServiceProcess>;
  operator(name?: string): Promise<string>;
  /** A simulated device booted through the broker, connected and discovered by the orchestrator. */
  device(options?: Partial<DeviceOptions>): Promise<SimDevice>;
  /** A simulated ListenAI device registered with a token, linked through the broker's link, discovered. */
  listenAiDevice(
    options?: Partial<Omit<ListenAiDeviceOptions, 'mac' | 'token' | 'linkUrls'>> & { model?: string },
  ): Promise<ListenAiDevice>;
  /** Stops a device and waits until its row and the first orchestrator both have it offline. */
  takeOffline(device: SimDevice): Promise<void>;
  call(request: Omit<CallRequest, 'deviceId'> & { device: { mac: string } }): Promise<string>;
  waitVerdict(callId: string, timeoutMs?: number): Promise<CallRow>;
  /** Until the call reaches a state (e.g. `verifying`). */
  waitFor(callId: string, state: string): Promise<void>;
  /** The call's five evidence rows in chain order (its seal link is `seal`). */
  evidence(callId: string): Promise<EvidenceRow[]>;
  /** The call's seal link, once sealed. */
  seal(callId: string): Promise<EvidenceRow | undefined>;
  close(): Promise<void>;
}

let macCounter = 0;

/** The real broker (its own process, from dist/), the orchestrator in-process, simulated devices, one database. */
export async function startPlatform(
  orchestratorEnv: Record<string, string> = {},
  { inProcessOrchestrator = true }: { inProcessOrchestrator?: boolean } = {},
): Promise<Platform> {
  const [db, redis] = await Promise.all([createTestDatabase(), startTestRedis()]);
  const broker = await startServiceProcess('broker', {
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
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
  const sql = new Pool({ connectionString: db.ownerUrl, max: 4 });
  const appPool = new Pool({ connectionString: db.url, max: 4 });
  const queueRedis: Redis = createRedis(redis.url);
  const calls = new CallRequests(appPool, queueRedis, 'fleet');
  const firmwareBaseUrl = `http://127.0.0.1:${broker.ports['http']}`;
  const devices: { stop(): Promise<void> }[] = [];
  const orchestrators: OrchestratorHandle[] = [];
  const logger = createLogger(
    'orchestrator-test',
    (process.env['TEST_LOG_LEVEL'] as 'silent' | undefined) ?? 'silent',
  );

  const processes: ServiceProcess[] = [];
  const orchestratorEnv_ = (replicaId: string, env: Record<string, string>) => ({
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    MQTT_URL: `mqtt://127.0.0.1:${broker.ports['mqtt']}`,
    MQTT_PASSWORD: SECRET,
    BIND_HOST: '127.0.0.1',
    HTTP_PORT: '0',
    REPLICA_ID: replicaId,
    LEASE_RENEW_MS: '200',
    LEASE_TTL_MS: '1500',
    SWEEP_INTERVAL_MS: '200',
    SWEEP_IDLE_MS: '1000',
    REBOOT_VERIFY_MS: '15000',
    UPGRADE_VERIFY_MS: '15000',
    DISCOVERY_TIMEOUT_MS: '3000',
    FIRMWARE_BASE_URL: firmwareBaseUrl,
    ...orchestratorEnv,
    ...env,
  });

  const platform: Platform = {
    db,
    redis,
    sql,
    broker,
    otaUrl: `${firmwareBaseUrl}/xiaozhi/ota/`,
    firmwareBaseUrl,
    orchestrators,
    calls,
    async startOrchestrator(replicaId = `orchestrator-${orchestrators.length + 1}`, env = {}) {
      const handle = await startOrchestrator(
        loadOrchestratorConfig(orchestratorEnv_(replicaId, env)),
        logger,
      );
      orchestrators.push(handle);
      return handle;
    },
    async startOrchestratorProcess(replicaId) {
      const child = await startServiceProcess('orchestrator', orchestratorEnv_(replicaId, {}));
      processes.push(child);
      return child;
    },
    async operator(name = 'Operator') {
      const id = randomUUID();
      await sql.query(`INSERT INTO operator (id, email, name, role) VALUES ($1, $2, $3, 'operator')`, [
        id,
        `${id}@example.com`,
        name,
      ]);
      return id;
    },
    async device(options = {}) {
      macCounter++;
      const mac = `02:0${process.pid % 10}:00:00:${(macCounter >> 8).toString(16).padStart(2, '0')}:${(macCounter & 255).toString(16).padStart(2, '0')}`;
      const device = createDevice({
        otaUrl: platform.otaUrl,
        mac,
        timings: FAST_TIMINGS,
        relayTools: 0,
        ...options,
      });
      devices.push(device);
      device.start();
      await device.waitUntilConnected();
      await waitFor(
        async () => {
          const { rows } = await sql.query('SELECT catalog_version_id FROM device WHERE id = $1', [
            device.mac,
          ]);
          return rows[0]?.catalog_version_id !== null && rows[0] !== undefined;
        },
        { what: `discovery of ${device.mac}`, timeoutMs: 15_000 },
      );
      return device;
    },
    async listenAiDevice({ model, ...options } = {}) {
      macCounter++;
      const mac = `02:1${process.pid % 10}:00:00:${(macCounter >> 8).toString(16).padStart(2, '0')}:${(macCounter & 255).toString(16).padStart(2, '0')}`;
      const registered = await registerListenAiDevice(sql, mac, model ? { model } : {});
      const device = new ListenAiDevice({
        mac,
        token: registered.token,
        linkUrls: [`ws://127.0.0.1:${broker.ports['link']}`],
        reconnectDelayMs: 50,
        ...options,
      });
      devices.push(device);
      device.start();
      await device.waitUntilLinked();
      await waitFor(
        async () => {
          const { rows } = await sql.query('SELECT catalog_version_id FROM device WHERE id = $1', [mac]);
          return rows[0]?.catalog_version_id != null;
        },
        { what: `discovery of ${mac}`, timeoutMs: 15_000 },
      );
      return device;
    },
    async takeOffline(device) {
      await device.stop();
      await waitFor(
        async () =>
          (await sql.query('SELECT online FROM device WHERE id = $1', [device.mac])).rows[0].online === false,
        { what: `${device.mac} offline in its row` },
      );
      // The orchestrator learns presence from the broker's event, which may come after the row changed: a call
      // sent before it arrives goes out and ends no_response, rightly.
      await waitFor(() => orchestrators[0]!.devices.get(device.mac)?.online === false, {
        what: `${device.mac} offline to the orchestrator`,
      });
    },
    async call({ device, ...request }) {
      const result = await calls.request({ deviceId: device.mac, replyTimeoutMs: 2_000, ...request });
      if (!result.ok) throw new Error(result.message);
      return result.callId;
    },
    async waitVerdict(callId, timeoutMs = 20_000) {
      return waitFor(
        async () => {
          const { rows } = await sql.query<CallRow>(
            'SELECT id, state, verdict, verdict_reason, parent_call_id, result FROM call WHERE id = $1',
            [callId],
          );
          return rows[0]?.verdict ? rows[0] : undefined;
        },
        { what: `the verdict of ${callId}`, timeoutMs },
      );
    },
    async waitFor(callId, state) {
      await waitFor(
        async () =>
          (await sql.query<CallRow>('SELECT state FROM call WHERE id = $1', [callId])).rows[0]?.state ===
          state,
        { what: `call ${callId} in state ${state}` },
      );
    },
    async evidence(callId) {
      const { rows } = await sql.query<EvidenceRow>(
        `SELECT stage, seq::text AS seq, payload FROM evidence WHERE call_id = $1 AND stage <> 'seal'
          ORDER BY evidence.seq`,
        [callId],
      );
      return rows;
    },
    async seal(callId) {
      const { rows } = await sql.query<EvidenceRow>(
        `SELECT stage, seq::text AS seq, payload FROM evidence WHERE call_id = $1 AND stage = 'seal'`,
        [callId],
      );
      return rows[0];
    },
    async close() {
      await Promise.all(devices.map((device) => device.stop()));
      for (const o of orchestrators) await o.stop();
      for (const child of processes) await child.stop('SIGKILL');
      await calls.close();
      queueRedis.disconnect();
      await broker.stop();
      await Promise.all([sql.end(), appPool.end()]);
      await Promise.all([db.drop(), redis.stop()]);
    },
  };
  if (inProcessOrchestrator) await platform.startOrchestrator();
  return platform;
}
