import {
  createTestDatabase,
  getJson,
  startTcpProxy,
  startTestMqttBroker,
  startTestRedis,
  waitFor,
  type TcpProxy,
  type TestDatabase,
  type TestMqttBroker,
  type TestRedis,
} from '@fleet/testing';
import { createLogger } from '@fleet/telemetry';
import { loadOrchestratorConfig } from './config';
import { startOrchestrator, type OrchestratorHandle } from './orchestrator-app';

const logger = createLogger('orchestrator-test', 'silent');
const PASSWORD = 'orchestrator-secret-0123456789';

describe('the orchestrator service', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let redisProxy: TcpProxy;
  let broker: TestMqttBroker;
  let orchestrator: OrchestratorHandle;

  beforeAll(async () => {
    [db, redis, broker] = await Promise.all([
      createTestDatabase(),
      startTestRedis(),
      startTestMqttBroker({ users: { orchestrator: PASSWORD } }),
    ]);
    redisProxy = await startTcpProxy(redis.port);
    orchestrator = await startOrchestrator(
      loadOrchestratorConfig({
        DATABASE_URL: db.url,
        REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
        MQTT_URL: broker.url,
        MQTT_PASSWORD: PASSWORD,
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
      }),
      logger,
    );
  });
  afterAll(async () => {
    await orchestrator.stop();
    await Promise.all([redisProxy.close(), broker.close()]);
    await Promise.all([db.drop(), redis.stop()]);
  });

  const healthz = () => getJson(`http://127.0.0.1:${orchestrator.ports.http}/healthz`);

  it('is healthy once Postgres, Redis and its broker connection are up', async () => {
    const ok = await waitFor(async () => {
      const r = await healthz();
      return r.status === 200 && r;
    });
    expect(ok.body).toMatchObject({
      checks: { postgres: { ok: true }, redis: { ok: true }, mqtt: { ok: true } },
    });
  });

  it('reports Redis down with a reason and recovers when it returns', async () => {
    await redisProxy.cut();
    const down = await waitFor(async () => {
      const r = await healthz();
      return r.status === 503 && r;
    });
    expect(down.body).toMatchObject({
      checks: { redis: { ok: false, hint: expect.stringContaining('redis-server') } },
    });
    await redisProxy.restore();
    await waitFor(async () => (await healthz()).status === 200, { what: 'healthz back to 200' });
  });
});
