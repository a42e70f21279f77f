import {
  createTestDatabase,
  getJson,
  startTestMqttBroker,
  startTestRedis,
  waitFor,
  type TestDatabase,
  type TestMqttBroker,
  type TestRedis,
} from '@fleet/testing';
import { createLogger } from '@fleet/telemetry';
import { loadVoiceWorkerConfig } from './config';
import { startVoiceWorker, type VoiceWorkerHandle } from './voice-worker-app';

const logger = createLogger('voice-worker-test', 'silent');
const PASSWORD = 'voice-worker-secret-0123456789';

describe('the voice worker service', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let broker: TestMqttBroker;
  let worker: VoiceWorkerHandle;

  beforeAll(async () => {
    [db, redis, broker] = await Promise.all([
      createTestDatabase(),
      startTestRedis(),
      startTestMqttBroker({ users: { 'voice-worker': PASSWORD } }),
    ]);
    worker = await startVoiceWorker(
      loadVoiceWorkerConfig({
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        MQTT_URL: broker.url,
        MQTT_PASSWORD: PASSWORD,
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
      }),
      logger,
    );
  });
  afterAll(async () => {
    await worker.stop();
    await broker.close();
    await Promise.all([db.drop(), redis.stop()]);
  });

  it('is healthy once Postgres, Redis and its broker connection are up', async () => {
    const ok = await waitFor(async () => {
      const r = await getJson(`http://127.0.0.1:${worker.ports.http}/healthz`);
      return r.status === 200 && r;
    });
    expect(ok.body).toMatchObject({
      checks: { postgres: { ok: true }, redis: { ok: true }, mqtt: { ok: true } },
    });
  });

  it('exposes stage timings and turn outcomes on /metrics', async () => {
    const response = await fetch(`http://127.0.0.1:${worker.ports.http}/metrics`);
    const text = await response.text();
    expect(text).toContain('voice_stage_seconds');
    expect(text).toContain('voice_turns_total');
  });

  it('reports the broker connection lost when the broker goes away', async () => {
    await broker.close();
    const down = await waitFor(async () => {
      const r = await getJson(`http://127.0.0.1:${worker.ports.http}/healthz`);
      return r.status === 503 && r;
    });
    expect(down.body).toMatchObject({
      checks: { mqtt: { ok: false, error: 'not connected to the broker' } },
    });
  });
});
