import type { Redis } from '@fleet/queues';
import { createLogger } from '@fleet/telemetry';
import { startTcpProxy, waitFor, type TcpProxy } from '@fleet/testing';
import { startHarness, type Harness } from '../../test/harness';
import { startAdminApi, type AdminApiHandle } from '../admin-api-app';
import { loadAdminApiConfig } from '../config';
import { REDIS } from '../infra/tokens';
import { addressBucket, credentialBucket } from './rate-limit-buckets';

describe('the buckets a request is counted in', () => {
  it('are one per credential, whether sent as a bearer token or the session cookie, and never hold it', () => {
    const key = 'fk_0123456789_secretsecretsecretsecretsecretsecretsecret';
    const bucket = credentialBucket({ authorization: `Bearer ${key}` });
    expect(bucket).toBeDefined();
    expect(bucket).not.toContain('0123456789');
    expect(credentialBucket({ authorization: `bearer  ${key} ` })).toBe(bucket);
    // Someone who knows the prefix but not the secret spends a bucket of their own.
    expect(credentialBucket({ authorization: 'Bearer fk_0123456789_forged' })).not.toBe(bucket);
    const session = 'fs_' + 'a'.repeat(43);
    expect(credentialBucket({ cookie: `theme=dark; fleet_session=${session}` })).toBe(
      credentialBucket({ authorization: `Bearer ${session}` }),
    );
    expect(credentialBucket({})).toBeUndefined();
  });

  it('are one per IPv4 address and one per IPv6 /64, however the address is written', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBucket('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressBucket('2001:db8:1:3::1')).not.toBe(addressBucket('2001:db8:1:2::1'));
  });
});

describe('the request rate limit', () => {
  let h: Harness;
  const peers: AdminApiHandle[] = [];
  const proxies: TcpProxy[] = [];
  const limits = { RATE_LIMIT_PER_KEY: '20', RATE_LIMIT_PER_ADDRESS: '1000', RATE_LIMIT_WINDOW_S: '60' };

  /** Another replica on the harness's database and Redis (or the Redis URL given). */
  async function peer(env: Record<string, string>, redisUrl = h.redis.url): Promise<AdminApiHandle> {
    const api = await startAdminApi(
      loadAdminApiConfig({
        DATABASE_URL: h.db.url,
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: h.queuePrefix,
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        LOG_LEVEL: 'silent',
        WEBHOOK_WORKER: 'false',
        VALIDATE_ANSWERS: 'true',
        ...limits,
        ...env,
      }),
      createLogger('admin-api-peer', 'silent'),
    );
    peers.push(api);
    return api;
  }

  const read = (
    api: AdminApiHandle,
    key: string | undefined,
    opts: { url?: string; from?: string; headers?: Record<string, string> } = {},
  ) =>
    api.app.inject({
      method: 'GET',
      url: opts.url ?? '/api/v1/devices',
      ...(opts.from ? { remoteAddress: opts.from } : {}),
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...opts.headers },
    });

  const tally = (answers: { statusCode: number }[]) => {
    const counts: Record<number, number> = {};
    for (const a of answers) counts[a.statusCode] = (counts[a.statusCode] ?? 0) + 1;
    return counts;
  };

  beforeAll(async () => {
    h = await startHarness(limits);
  });
  afterAll(async () => {
    await Promise.all(peers.map((p) => p.stop()));
    await Promise.all(proxies.map((p) => p.close()));
    await h.stop();
  });

  it('answers a viewer past its limit 429 with Retry-After in the API’s error shape, and counts it', async () => {
    const viewer = await h.person('viewer');
    const answers = await Promise.all(Array.from({ length: 300 }, () => read(h.api, viewer.key)));
    expect(tally(answers)).toEqual({ 200: 20, 429: 280 });
    const refused = answers.find((a) => a.statusCode === 429)!;
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({
      statusCode: 429,
      code: 'too_many_requests',
      message: expect.stringMatching(
        /^more than 20 requests in 60 s from this credential; try again in \d+ s$/,
      ),
    });
    const metrics = await h.request('GET', '/metrics');
    expect(metrics.text).toMatch(/admin_api_rate_limited_total\{[^}]*scope="key"[^}]*\} 280\n/);
    // The refusals are requests like any other in the API's own counts.
    expect(metrics.text).toMatch(/admin_api_http_requests_total\{[^}]*status="429"[^}]*\} 280\n/);
  });

  it('leaves another key, of the same person or another, its own budget', async () => {
    const viewer = await h.person('viewer');
    await Promise.all(Array.from({ length: 25 }, () => read(h.api, viewer.key)));
    expect((await read(h.api, viewer.key)).statusCode).toBe(429);
    const sameOwner = await h.addKey(viewer.operatorId, 'viewer');
    const someoneElse = await h.person('viewer');
    expect((await read(h.api, sameOwner)).statusCode).toBe(200);
    expect((await read(h.api, someoneElse.key)).statusCode).toBe(200);
  });

  it('shares one budget between two API instances on the same Redis', async () => {
    const other = await peer({});
    const viewer = await h.person('viewer');
    const first = await Promise.all(Array.from({ length: 12 }, () => read(h.api, viewer.key)));
    const second = await Promise.all(Array.from({ length: 12 }, () => read(other, viewer.key)));
    expect(tally(first)).toEqual({ 200: 12 });
    expect(tally(second)).toEqual({ 200: 8, 429: 4 });
  });

  it('limits an address whatever credentials it sends, and only that address', async () => {
    const api = await peer({ RATE_LIMIT_PER_ADDRESS: '5' });
    // Forged keys: each a credential of its own, all from one address.
    const forged = await Promise.all(
      Array.from({ length: 8 }, (_, i) => read(api, `fk_000000000${i}_forged`, { from: '198.51.100.7' })),
    );
    expect(tally(forged)).toEqual({ 401: 5, 429: 3 });
    const refused = forged.find((a) => a.statusCode === 429)!;
    expect(refused.json().message).toMatch(/from this address/);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await read(api, undefined, { from: '198.51.100.8' })).statusCode).toBe(401);
    // Probes and scrapes are never counted.
    expect((await read(api, undefined, { url: '/healthz', from: '198.51.100.7' })).statusCode).toBe(200);
    expect((await read(api, undefined, { url: '/metrics', from: '198.51.100.7' })).statusCode).toBe(200);
  });

  it('believes X-Forwarded-For for the address only behind a trusted proxy', async () => {
    const trusting = await peer({ RATE_LIMIT_PER_ADDRESS: '3', TRUST_PROXY: 'true' });
    const direct = await peer({ RATE_LIMIT_PER_ADDRESS: '3' });
    const via = (api: AdminApiHandle, client: string, proxy: string) =>
      read(api, undefined, { from: proxy, headers: { 'x-forwarded-for': client } });
    // Behind the proxy, two clients keep apart though they arrive through one proxy address.
    const behind = await Promise.all([
      ...Array.from({ length: 3 }, () => via(trusting, '203.0.113.1', '192.0.2.10')),
      ...Array.from({ length: 3 }, () => via(trusting, '203.0.113.2', '192.0.2.10')),
    ]);
    expect(tally(behind)).toEqual({ 401: 6 });
    // Without trust, the header names nothing: a client cannot name a fresh address per request.
    const spoofed = await Promise.all(
      Array.from({ length: 5 }, (_, i) => via(direct, `203.0.113.${i + 10}`, '192.0.2.20')),
    );
    expect(tally(spoofed)).toEqual({ 401: 3, 429: 2 });
  });

  it('keeps answering while Redis is unreachable, each replica then limiting in its own memory', async () => {
    const proxy = await startTcpProxy(h.redis.port);
    proxies.push(proxy);
    const u = new URL(h.redis.url);
    u.port = String(proxy.port);
    const api = await peer({}, u.toString());
    const viewer = await h.person('viewer');
    await proxy.cut();
    await waitFor(() => api.app.get<Redis>(REDIS).status !== 'ready', { what: 'the API to see Redis gone' });
    const answers = await Promise.all(Array.from({ length: 30 }, () => read(api, viewer.key)));
    expect(tally(answers)).toEqual({ 200: 20, 429: 10 });
  });
});
