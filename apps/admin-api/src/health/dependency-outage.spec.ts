import type { Redis } from '@fleet/queues';
import { createLogger } from '@fleet/telemetry';
import { startTcpProxy, waitFor, type TcpProxy } from '@fleet/testing';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { startAdminApi, type AdminApiHandle } from '../admin-api-app';
import { CredentialChanges } from '../auth/credential-changes-adapter';
import { loadAdminApiConfig } from '../config';
import { REDIS } from '../infra/tokens';

function through(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}

// A second API over the harness's database and Redis, reaching both through proxies the test cuts, like a
// dependency going down: every route answers, a 503 naming what is missing, with Retry-After. (Before, a call
// request hung until Redis came back: here that is the test's timeout. How fast they answer is measured by
// the fault suite, tools/chaos, and recorded in docs/RELIABILITY.md.)
describe('the API while a dependency is down', () => {
  let h: Harness;
  let api: AdminApiHandle;
  let postgres: TcpProxy;
  let redis: TcpProxy;
  let operator: Person;
  let device: string;

  const inject = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const response = await api.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${operator.key}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(response.body) as Record<string, unknown>;
    } catch {
      // not JSON
    }
    return { status: response.statusCode, body: json, headers: response.headers };
  };

  beforeAll(async () => {
    h = await startHarness();
    const pg = new URL(h.db.url);
    [postgres, redis] = await Promise.all([
      startTcpProxy(Number(pg.port || 5432), pg.hostname),
      startTcpProxy(h.redis.port),
    ]);
    api = await startAdminApi(
      loadAdminApiConfig({
        DATABASE_URL: through(h.db.url, postgres),
        REDIS_URL: through(h.redis.url, redis),
        QUEUE_PREFIX: h.queuePrefix,
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        WEBHOOK_WORKER: 'false',
        VALIDATE_ANSWERS: 'true',
      }),
      createLogger('admin-api-outage-test', 'silent'),
    );
    operator = await h.person('operator');
    device = (await insertDevices(h.pool, 1, { online: true }))[0]!;
  });

  afterAll(async () => {
    await api?.stop();
    await Promise.all([postgres?.close(), redis?.close()]);
    await h?.stop();
  });

  afterEach(async () => {
    // Both back for the next test, and the API's Redis link ready again.
    await Promise.all([postgres.restore().catch(() => undefined), redis.restore().catch(() => undefined)]);
    await waitFor(async () => (await inject('GET', '/healthz')).status === 200, {
      what: 'the API healthy again',
    });
  });

  it('records a call asked for while Redis is down and says it runs once the queue is back', async () => {
    await redis.cut();
    const answer = await inject('POST', `/api/v1/devices/${device}/calls`, {
      tool: 'self.get_device_status',
      arguments: {},
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ state: 'queued', note: expect.stringMatching(/queue is back/) });
    // The row the orchestrator's sweep picks up (a queued call whose wake-up was lost): nothing half-written.
    const { rows } = await h.pool.query<{ state: string }>('SELECT state FROM call WHERE id = $1', [
      answer.body['id'],
    ]);
    expect(rows).toEqual([{ state: 'queued' }]);
  });

  it('answers 503 naming Redis, with Retry-After, for what cannot work without it', async () => {
    await redis.cut();
    // Down as the API knows it: a request that arrives before its link has seen the cut finds Redis still there.
    await waitFor(() => api.app.get<Redis>(REDIS).status !== 'ready', { what: 'the API to see Redis gone' });
    const events = await inject('GET', '/api/v1/events');
    const utterance = await inject('POST', `/api/v1/devices/${device}/utterances`, { text: 'volume up' });
    for (const answer of [events, utterance]) {
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('5');
    }
    expect(events.body).toMatchObject({ code: 'dependency_unavailable', dependency: 'redis' });
    const health = await inject('GET', '/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ checks: { redis: { ok: false }, postgres: { ok: true } } });
  });

  it('answers 503 naming Postgres, with Retry-After, on every route while Postgres is down', async () => {
    await postgres.cut();
    // Until the credential listener has seen the cut, a key is still answered from what this replica remembers.
    await waitFor(() => !api.app.get(CredentialChanges).cache.enabled, {
      what: 'the API to see Postgres gone',
    });
    const answers = await Promise.all([
      inject('GET', '/api/v1/devices'),
      inject('GET', `/api/v1/devices/${device}`),
      inject('POST', `/api/v1/devices/${device}/calls`, { tool: 'self.get_device_status' }),
      inject('GET', '/api/v1/auth/me'),
    ]);
    for (const answer of answers) {
      expect(answer).toMatchObject({
        status: 503,
        body: { code: 'dependency_unavailable', dependency: 'postgres' },
        headers: expect.objectContaining({ 'retry-after': '5' }),
      });
    }
  });
});
