import { createHash } from 'node:crypto';
import { Pool } from 'pg';
import {
  createDevice,
  FAST_TIMINGS,
  ListenAiDevice,
  type DeviceOptions,
  type SimDevice,
} from '@fleet/device-sim';
import { createRedis, QueueClient, type Redis } from '@fleet/queues';
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
import { loadVoiceWorkerConfig } from '../src/config';
import { startVoiceWorker, type VoiceWorkerHandle } from '../src/voice-worker-app';

const SIGNING_KEY = 'voice-test-signing-key-0123456789';
const SECRET = 'voice-test-service-secret-0123456789';

export interface TurnRow {
  id: string;
  state: string;
  source: string;
  language: string | null;
  transcript_hash: string | null;
  reply: string | null;
  reply_mode: string | null;
  tool_calls: Record<string, unknown>[];
  timings: Record<string, unknown>;
  error: string | null;
}

export interface CallRow {
  id: string;
  tool: string;
  origin: string;
  verdict: string | null;
  verdict_reason: string | null;
  parent_call_id: string | null;
  voice_turn_id: string | null;
  request_context: { llmToolCall?: Record<string, unknown>; utteranceHash?: string } | null;
}

export interface VoicePlatform {
  sql: Pool;
  worker: VoiceWorkerHandle;
  device(options?: Partial<DeviceOptions>): Promise<SimDevice>;
  /** A simulated ListenAI device registered with a token, linked through the broker's link, discovered. */
  listenAiDevice(): Promise<ListenAiDevice>;
  /** What `POST /devices/:id/utterances` does: the transcript apart, the turn, the job. */
  utter(device: { mac: string }, text: string, language?: string): Promise<string>;
  waitTurn(turnId: string, timeoutMs?: number): Promise<TurnRow>;
  /** The next turn of a device that is finished or failed (audio turns are created by the worker). */
  waitTurnOf(device: SimDevice, timeoutMs?: number): Promise<TurnRow>;
  callsOf(turnId: string): Promise<CallRow[]>;
  close(): Promise<void>;
}

let macCounter = 0;

/**
 * The real broker and orchestrator as child processes (from dist/, as in production), the voice worker in this
 * process with `workerEnv` on top of the test settings, simulated devices booted through the broker, one database.
 */
export async function startVoicePlatform(
  workerEnv: Record<string, string> = {},
  orchestratorEnv: Record<string, string> = {},
): Promise<VoicePlatform> {
  const [db, redis]: [TestDatabase, TestRedis] = await Promise.all([createTestDatabase(), startTestRedis()]);
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
  const mqttUrl = `mqtt://127.0.0.1:${broker.ports['mqtt']}`;
  const httpBase = `http://127.0.0.1:${broker.ports['http']}`;
  const worker = await startVoiceWorker(
    loadVoiceWorkerConfig({
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      MQTT_URL: mqttUrl,
      MQTT_PASSWORD: SECRET,
      BIND_HOST: '127.0.0.1',
      HTTP_PORT: '0',
      WORKER_ID: `voice-test-${process.pid}`,
      ...workerEnv,
    }),
    createLogger('voice-worker-test', (process.env['TEST_LOG_LEVEL'] as 'silent' | undefined) ?? 'silent'),
  );
  const orchestrator: ServiceProcess = await startServiceProcess('orchestrator', {
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    MQTT_URL: mqttUrl,
    MQTT_PASSWORD: SECRET,
    BIND_HOST: '127.0.0.1',
    HTTP_PORT: '0',
    REPLICA_ID: 'orchestrator-voice-test',
    LEASE_RENEW_MS: '200',
    LEASE_TTL_MS: '1500',
    SWEEP_INTERVAL_MS: '200',
    SWEEP_IDLE_MS: '1000',
    DISCOVERY_TIMEOUT_MS: '3000',
    FIRMWARE_BASE_URL: httpBase,
    VISION_URL: `http://127.0.0.1:${worker.ports.http}/vision/explain`,
    ...orchestratorEnv,
  });
  const sql = new Pool({ connectionString: db.ownerUrl, max: 4 });
  const queueRedis: Redis = createRedis(redis.url);
  const queue = new QueueClient('voice-turns', queueRedis, 'fleet');
  const devices: { stop(): Promise<void> }[] = [];
  const discovered = (mac: string) =>
    waitFor(
      async () =>
        // null (not yet discovered) must read as "not yet": waitFor only waits on undefined and false
        ((await sql.query('SELECT catalog_version_id FROM device WHERE id = $1', [mac])).rows[0]
          ?.catalog_version_id as string | null) ?? undefined,
      { what: `discovery of ${mac}`, timeoutMs: 15_000 },
    );
  const seen = new Map<string, Set<string>>();

  const platform: VoicePlatform = {
    sql,
    worker,
    async device(options = {}) {
      macCounter++;
      const mac = `02:1${process.pid % 10}:00:00:${(macCounter >> 8).toString(16).padStart(2, '0')}:${(macCounter & 255).toString(16).padStart(2, '0')}`;
      const device = createDevice({
        otaUrl: `${httpBase}/xiaozhi/ota/`,
        mac,
        timings: FAST_TIMINGS,
        relayTools: 0,
        ...options,
      });
      devices.push(device);
      device.start();
      await device.waitUntilConnected();
      await discovered(mac);
      return device;
    },
    async listenAiDevice() {
      macCounter++;
      const mac = `02:2${process.pid % 10}:00:00:${(macCounter >> 8).toString(16).padStart(2, '0')}:${(macCounter & 255).toString(16).padStart(2, '0')}`;
      const { token } = await registerListenAiDevice(sql, mac);
      const device = new ListenAiDevice({
        mac,
        token,
        linkUrls: [`ws://127.0.0.1:${broker.ports['link']}`],
        reconnectDelayMs: 50,
      });
      devices.push(device);
      device.start();
      await device.waitUntilLinked();
      await discovered(mac);
      return device;
    },
    async utter(device, text, language) {
      const hash = createHash('sha256').update(text).digest('hex');
      await sql.query('INSERT INTO voice_transcript (hash, text) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        hash,
        text,
      ]);
      const { rows } = await sql.query<{ id: string }>(
        `INSERT INTO voice_turn (id, device_id, source, language, transcript_hash)
         VALUES (gen_random_uuid(), $1, 'text', $2, $3) RETURNING id`,
        [device.mac, language ?? null, hash],
      );
      const id = rows[0]!.id;
      await queue.add('voice.turn', { turnId: id });
      return id;
    },
    waitTurn(turnId, timeoutMs = 20_000) {
      return waitFor(
        async () => {
          const { rows } = await sql.query<TurnRow>('SELECT * FROM voice_turn WHERE id = $1', [turnId]);
          const row = rows[0];
          return row && (row.state === 'finished' || row.state === 'failed') ? row : undefined;
        },
        { what: `the end of voice turn ${turnId}`, timeoutMs },
      );
    },
    waitTurnOf(device, timeoutMs = 20_000) {
      const done = seen.get(device.mac) ?? new Set<string>();
      seen.set(device.mac, done);
      return waitFor(
        async () => {
          const { rows } = await sql.query<TurnRow>(
            `SELECT * FROM voice_turn WHERE device_id = $1 AND state IN ('finished', 'failed')
              ORDER BY created_at`,
            [device.mac],
          );
          const row = rows.find((r) => !done.has(r.id));
          if (row) done.add(row.id);
          return row;
        },
        { what: `a finished voice turn of ${device.mac}`, timeoutMs },
      );
    },
    async callsOf(turnId) {
      const { rows } = await sql.query<CallRow>(
        `SELECT id, tool, origin, verdict, verdict_reason, parent_call_id, voice_turn_id, request_context
           FROM call WHERE voice_turn_id = $1 OR parent_call_id IN (SELECT id FROM call WHERE voice_turn_id = $1)
          ORDER BY created_at`,
        [turnId],
      );
      return rows;
    },
    async close() {
      await Promise.all(devices.map((d) => d.stop()));
      await worker.stop();
      await orchestrator.stop();
      await queue.close();
      queueRedis.disconnect();
      await broker.stop();
      await sql.end();
      await Promise.all([db.drop(), redis.stop()]);
    },
  };
  return platform;
}
