import { ConfigError } from '@fleet/config';
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
import { startBroker, type BrokerHandle } from './broker-app';
import { loadBrokerConfig } from './config';

const logger = createLogger('broker-test', 'silent');

describe('the broker service', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let pgProxy: TcpProxy;
  let broker: BrokerHandle;

  beforeAll(async () => {
    [db, redis] = await Promise.all([createTestDatabase(), startTestRedis()]);
    pgProxy = await startTcpProxy(5432);
    const url = new URL(db.url);
    url.port = String(pgProxy.port);
    broker = await startBroker(
      loadBrokerConfig({
        DATABASE_URL: url.toString(),
        REDIS_URL: redis.url,
        BIND_HOST: '127.0.0.1',
        MQTT_PORT: '0',
        MQTT_WS_PORT: '0',
        HTTP_PORT: '0',
        UDP_PORT: '0',
        LINK_PORT: '0',
        DEVICE_SIGNING_KEYS: 'test-signing-key-0123456789',
        SERVICE_CREDENTIALS: 'orchestrator:orchestrator-secret-0123456789',
      }),
      logger,
    );
  });
  afterAll(async () => {
    await broker.stop();
    await pgProxy.close();
    await Promise.all([db.drop(), redis.stop()]);
  });

  const healthz = () => getJson(`http://127.0.0.1:${broker.ports.http}/healthz`);

  it('answers /healthz with 200 when Postgres, Redis and its MQTT listener are up', async () => {
    const { status, body } = await waitFor(async () => {
      const r = await healthz();
      return r.status === 200 && r;
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'ok',
      checks: { postgres: { ok: true }, redis: { ok: true }, mqtt: { ok: true } },
    });
  });

  it('serves Prometheus metrics labelled with the service', async () => {
    const response = await fetch(`http://127.0.0.1:${broker.ports.http}/metrics`);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(await response.text()).toMatch(/process_cpu_user_seconds_total\{service="broker"\}/);
  });

  it('says Postgres is down and how to start it, then recovers when it returns', async () => {
    await pgProxy.cut();
    const down = await waitFor(async () => {
      const r = await healthz();
      return r.status === 503 && r;
    });
    expect(down.body).toMatchObject({
      status: 'unhealthy',
      checks: {
        postgres: { ok: false, hint: expect.stringContaining('pg_ctlcluster') },
        redis: { ok: true },
      },
    });
    await pgProxy.restore();
    await waitFor(async () => (await healthz()).status === 200, { what: 'healthz back to 200' });
  });
});

describe('broker configuration', () => {
  it('refuses a production start without device signing keys, naming the variable', () => {
    expect(() =>
      loadBrokerConfig({ NODE_ENV: 'production', SERVICE_CREDENTIALS: 'orchestrator:0123456789abcdef' }),
    ).toThrow(ConfigError);
    expect(() =>
      loadBrokerConfig({ NODE_ENV: 'production', SERVICE_CREDENTIALS: 'orchestrator:0123456789abcdef' }),
    ).toThrow(/DEVICE_SIGNING_KEYS/);
  });

  it('refuses a production start without the keys that seal eFuse keys, naming the variable', () => {
    const configured = {
      NODE_ENV: 'production',
      DEVICE_SIGNING_KEYS: 'a-device-signing-key-0123456789',
      SERVICE_CREDENTIALS: 'orchestrator:0123456789abcdef',
    };
    expect(() => loadBrokerConfig(configured)).toThrow(/EFUSE_WRAPPING_KEYS/);
    expect(
      loadBrokerConfig({ ...configured, EFUSE_WRAPPING_KEYS: 'ab'.repeat(32) }).efuseWrappingKeys,
    ).toHaveLength(1);
  });

  it('names a bad port variable', () => {
    expect(() =>
      loadBrokerConfig({ MQTT_PORT: 'eighteen', DEVICE_SIGNING_KEYS: 'k', SERVICE_CREDENTIALS: 'a:b' }),
    ).toThrow(/MQTT_PORT/);
  });
});
