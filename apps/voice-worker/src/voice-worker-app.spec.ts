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
import { createRedis, type Redis } from '@fleet/queues';
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
  let commands: Redis;
  const env = () => ({
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    MQTT_URL: broker.url,
    MQTT_PASSWORD: PASSWORD,
    BIND_HOST: '127.0.0.1',
    HTTP_PORT: '0',
  });
  const health = () => getJson(`http://127.0.0.1:${worker.ports.http}/healthz`);
  const sessionGroups = async () =>
    ((await commands.xinfo('GROUPS', 'voice:sessions').catch(() => [])) as unknown[][]).map((g) => g[1]);

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
    commands = createRedis(redis.url);
    commands.on('error', () => undefined);
  });
  afterAll(async () => {
    commands.disconnect();
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

  it('says degraded with 200, naming each missing offline engine and its Debian package', async () => {
    const bare = await startVoiceWorker(
      loadVoiceWorkerConfig({
        ...env(),
        WORKER_ID: 'voice-worker-without-engines',
        PATH: '/nonexistent',
        POCKETSPHINX_HMM: '/nonexistent/en-us',
      }),
      logger,
    );
    try {
      const answer = await waitFor(async () => {
        const r = await getJson(`http://127.0.0.1:${bare.ports.http}/healthz`);
        return r.status === 200 && r;
      });
      expect(answer.body).toMatchObject({ ok: true, status: 'degraded' });
      const engines = (answer.body as { checks: Record<string, { error: string }> }).checks[
        'speech-engines'
      ]!;
      expect(engines).toMatchObject({ ok: false, severity: 'degraded' });
      for (const missing of [
        'tts: espeak-ng (Debian package espeak-ng)',
        'audio: sox (Debian package sox)',
        'asr: pocketsphinx_continuous (Debian package pocketsphinx)',
        'asr: /nonexistent/en-us (Debian package pocketsphinx-en-us)',
      ])
        expect(engines.error).toContain(missing);
    } finally {
      await bare.stop();
    }
    // This machine has them all: the worker of the other tests says ok.
    expect((await health()).body).toMatchObject({ status: 'ok' });
  });

  it('recreates the voice:sessions consumer group when Redis restarts empty', async () => {
    expect(await sessionGroups()).toEqual(['voice-workers']);
    await redis.restart();
    await waitFor(async () => (await sessionGroups()).includes('voice-workers'), {
      what: 'the consumer group recreated',
    });
    await waitFor(async () => (await health()).status === 200, { what: 'healthy after the restart' });
  });

  it('reports on /healthz a stream reader that keeps failing, and recovers when it can read again', async () => {
    // A key of the wrong type: every read of voice:sessions fails, and so does recreating its group.
    await commands.del('voice:sessions');
    await commands.set('voice:sessions', 'not a stream');
    const down = await waitFor(
      async () => {
        const r = await health();
        return r.status === 503 && r;
      },
      { what: 'the failing reader reported', timeoutMs: 15_000 },
    );
    expect(down.body).toMatchObject({
      status: 'unhealthy',
      checks: {
        'stream-readers': { ok: false, error: expect.stringMatching(/session group reader failing/) },
      },
    });
    await commands.del('voice:sessions');
    await waitFor(async () => (await health()).status === 200, { what: 'healthy again', timeoutMs: 15_000 });
    expect(await sessionGroups()).toEqual(['voice-workers']);
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
