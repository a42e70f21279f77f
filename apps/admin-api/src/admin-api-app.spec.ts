import {
  createTestDatabase,
  getJson,
  startTcpProxy,
  startTestRedis,
  waitFor,
  type TcpProxy,
  type TestDatabase,
  type TestRedis,
} from '@fleet/testing';
import { createLogger } from '@fleet/telemetry';
import { startAdminApi, type AdminApiHandle } from './admin-api-app';
import { loadAdminApiConfig } from './config';

const logger = createLogger('admin-api-test', 'silent');

describe('the admin API service', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let pgProxy: TcpProxy;
  let api: AdminApiHandle;

  beforeAll(async () => {
    [db, redis] = await Promise.all([createTestDatabase(), startTestRedis()]);
    pgProxy = await startTcpProxy(5432);
    const url = new URL(db.url);
    url.port = String(pgProxy.port);
    api = await startAdminApi(
      loadAdminApiConfig({
        DATABASE_URL: url.toString(),
        REDIS_URL: redis.url,
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        VALIDATE_ANSWERS: 'true',
      }),
      logger,
    );
  });
  afterAll(async () => {
    await api.stop();
    await pgProxy.close();
    await Promise.all([db.drop(), redis.stop()]);
  });

  const base = () => `http://127.0.0.1:${api.ports.http}`;

  it('answers /healthz with 200 outside the /api/v1 prefix', async () => {
    const ok = await waitFor(async () => {
      const r = await getJson(`${base()}/healthz`);
      return r.status === 200 && r;
    });
    expect(ok.body).toMatchObject({ status: 'ok', checks: { postgres: { ok: true }, redis: { ok: true } } });
  });

  it('serves Prometheus metrics', async () => {
    const response = await fetch(`${base()}/metrics`);
    expect(await response.text()).toMatch(/nodejs_heap_size_used_bytes\{service="admin-api"\}/);
  });

  it('fails /healthz naming Postgres while it is down, and recovers', async () => {
    await pgProxy.cut();
    const down = await waitFor(async () => {
      const r = await getJson(`${base()}/healthz`);
      return r.status === 503 && r;
    });
    expect(down.body).toMatchObject({ checks: { postgres: { ok: false } } });
    await pgProxy.restore();
    await waitFor(async () => (await getJson(`${base()}/healthz`)).status === 200, {
      what: 'healthz back to 200',
    });
  });
});
