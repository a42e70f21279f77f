import { parseLinkToken, verifyLinkTokenSecret } from '@fleet/auth';
import { createRedis, type Redis } from '@fleet/queues';
import { waitFor } from '@fleet/testing';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { CONTROL_CHANNEL } from '../infra/control-channel';

describe('registering a ListenAI device', () => {
  let h: Harness;
  let viewer: Person;
  let operator: Person;
  let subscriber: Redis;
  const control: { type: string; deviceId: string; tokenId?: string }[] = [];

  beforeAll(async () => {
    h = await startHarness({ PUBLIC_LINK_URL: 'wss://link.example.com/v1/interaction' });
    [viewer, operator] = [await h.person('viewer'), await h.person('operator')];
    subscriber = createRedis(h.redis.url);
    subscriber.on('message', (_channel: string, message: string) => control.push(JSON.parse(message)));
    await subscriber.subscribe(CONTROL_CHANNEL);
  });
  afterAll(async () => {
    subscriber.disconnect();
    await h.stop();
  });

  const register = (body: unknown, key = operator.key) => h.request('POST', '/api/v1/devices', { key, body });

  it('gives its link token once, with the link URL, and keeps only the hash', async () => {
    const r = await register({ id: 'A0-85-E3-00-00-01', dialect: 'listenai', model: 'arcs-mini' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      deviceId: 'a0:85:e3:00:00:01',
      linkUrl: 'wss://link.example.com/v1/interaction',
      revokedTokens: [],
      token: { revokedAt: null, lastUsedAt: null },
    });
    const secret = r.body.token.secret as string;
    const parsed = parseLinkToken(secret)!;
    expect(parsed.prefix).toBe(r.body.token.prefix);
    const { rows } = await h.owner.query(
      `SELECT d.dialect, d.board, d.status, t.secret_hash, t.issued_by FROM device d JOIN device_link_token t ON t.device_id = d.id WHERE d.id = $1`,
      ['a0:85:e3:00:00:01'],
    );
    expect(rows).toEqual([
      {
        dialect: 'listenai',
        board: 'arcs-mini',
        status: 'active',
        secret_hash: expect.any(String),
        issued_by: operator.operatorId,
      },
    ]);
    expect(verifyLinkTokenSecret(parsed.secret, rows[0].secret_hash)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(parsed.secret);
    const detail = await h.request('GET', '/api/v1/devices/a0:85:e3:00:00:01', { key: viewer.key });
    expect(detail.body).toMatchObject({
      dialect: 'listenai',
      linkTokens: [{ prefix: parsed.prefix, revokedAt: null }],
    });
    expect(detail.text).not.toContain(parsed.secret);
    const audit = await h.owner.query(`SELECT details FROM audit_event WHERE action = 'device.register'`);
    expect(JSON.stringify(audit.rows)).not.toContain(parsed.secret);
  });

  it('refuses a taken id, another dialect, a bad MAC and a viewer, naming the field', async () => {
    expect((await register({ id: 'a0:85:e3:00:00:01', dialect: 'listenai' })).status).toBe(409);
    const xiaozhi = await register({ id: 'a0:85:e3:00:00:02', dialect: 'xiaozhi' });
    expect(xiaozhi.status).toBe(400);
    expect(xiaozhi.body.issues[0].field).toBe('body.dialect');
    const bad = await register({ id: 'not-a-mac', dialect: 'listenai' });
    expect(bad.body.issues[0]).toEqual({ field: 'body.id', message: 'a MAC address (a0:85:e3:f4:49:34)' });
    expect((await register({ id: 'a0:85:e3:00:00:03', dialect: 'listenai', colour: 'red' })).status).toBe(
      400,
    );
    expect((await register({ id: 'a0:85:e3:00:00:04', dialect: 'listenai' }, viewer.key)).status).toBe(403);
  });

  it('replaces a token, revoking the old one, and revokes on request, telling the broker each time', async () => {
    const first = await register({ id: 'a0:85:e3:00:00:10', dialect: 'listenai' });
    const replaced = await h.request('POST', '/api/v1/devices/a0:85:e3:00:00:10/link-token', {
      key: operator.key,
    });
    expect(replaced.status).toBe(201);
    expect(replaced.body.revokedTokens).toEqual([first.body.token.id]);
    expect(replaced.body.token.secret).not.toBe(first.body.token.secret);
    await waitFor(() => control.some((m) => m.tokenId === first.body.token.id));
    const revoked = await h.request('POST', '/api/v1/devices/a0:85:e3:00:00:10/link-token/revoke', {
      key: operator.key,
      body: { reason: 'lost' },
    });
    expect(revoked.body).toEqual({ deviceId: 'a0:85:e3:00:00:10', revokedTokens: [replaced.body.token.id] });
    await waitFor(() =>
      control.some((m) => m.type === 'device.link_token_revoked' && m.tokenId === replaced.body.token.id),
    );
    const { rows } = await h.owner.query(
      `SELECT count(*)::int AS live FROM device_link_token WHERE device_id = $1 AND revoked_at IS NULL`,
      ['a0:85:e3:00:00:10'],
    );
    expect(rows[0].live).toBe(0);
    const [xiaozhi] = await insertDevices(h.pool, 1, { start: 500 });
    const refused = await h.request('POST', `/api/v1/devices/${xiaozhi}/link-token`, { key: operator.key });
    expect(refused).toMatchObject({ status: 409, body: { code: 'not_listenai' } });
    expect(
      (await h.request('POST', '/api/v1/devices/ff:ff:ff:ff:ff:ff/link-token', { key: operator.key })).status,
    ).toBe(404);
  });

  it('lists and filters the fleet by dialect', async () => {
    await insertDevices(h.pool, 3, { start: 900 });
    const listenai = await h.request('GET', '/api/v1/devices?dialect=listenai', { key: viewer.key });
    expect(listenai.body.items.length).toBeGreaterThanOrEqual(2);
    expect(listenai.body.items.every((d: { dialect: string }) => d.dialect === 'listenai')).toBe(true);
    const xiaozhi = await h.request('GET', '/api/v1/devices?dialect=xiaozhi', { key: viewer.key });
    expect(xiaozhi.body.items.map((d: { dialect: string }) => d.dialect)).toContain('xiaozhi');
    expect(xiaozhi.body.items.some((d: { dialect: string }) => d.dialect === 'listenai')).toBe(false);
    expect(
      (await h.request('GET', '/api/v1/devices?dialect=mqtt', { key: viewer.key })).body.issues[0].field,
    ).toBe('query.dialect');
  });
});
