import { createRedis, type Redis } from '@fleet/queues';
import { waitFor } from '@fleet/testing';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { CONTROL_CHANNEL } from '../infra/control-channel';

describe('the fleet list', () => {
  let h: Harness;
  let viewer: Person;
  let all: string[];

  beforeAll(async () => {
    h = await startHarness();
    viewer = await h.person('viewer');
    // 10,000 devices in one statement; every third online, every fifth on another board and firmware.
    all = await insertDevices(h.pool, 10_000);
    await h.pool.query(
      `WITH n AS (SELECT id, split_part(client_id, '-', 2)::int AS n FROM device)
       UPDATE device d SET online = (n.n % 3 = 0),
              board = CASE WHEN n.n % 5 = 0 THEN 'esp-box-3' ELSE d.board END,
              firmware_version = CASE WHEN n.n % 5 = 0 THEN '1.7.0' ELSE d.firmware_version END
         FROM n WHERE n.id = d.id`,
    );
    await h.pool.query('ANALYZE device');
  });
  afterAll(() => h.stop());

  const page = (query: string) => h.request('GET', `/api/v1/devices?${query}`, { key: viewer.key });

  /** Follows nextCursor to the end; every id it saw, in order. */
  const walk = async (query: string) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await page(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.items.map((d: { id: string }) => d.id));
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor);
    return { seen, pages };
  };

  it('pages through 10,000 devices, each exactly once and in order', async () => {
    const { seen, pages } = await walk('limit=500');
    expect(pages).toBe(20);
    expect(seen).toEqual(all);
  });

  it('pages through a filtered list to the same set the database holds', async () => {
    const expected = await h.pool.query(
      `SELECT id FROM device WHERE online AND board = 'esp-box-3' ORDER BY id`,
    );
    const { seen } = await walk('online=true&board=esp-box-3&limit=100');
    expect(seen).toEqual(expected.rows.map((r) => r.id));
    expect(seen.length).toBeGreaterThan(100);
    const firmware = await walk('firmware=1.7.0&limit=500');
    const byFirmware = await h.pool.query(
      `SELECT count(*)::int AS n FROM device WHERE firmware_version = '1.7.0'`,
    );
    expect(firmware.seen).toHaveLength(byFirmware.rows[0].n);
    expect((await page('status=revoked')).body.items).toEqual([]);
    expect((await page('status=active&limit=3')).body.items).toHaveLength(3);
  });

  it('filters by group and tag, and searches by MAC prefix', async () => {
    const { rows } = await h.pool.query(
      `INSERT INTO device_group (id, name, updated_at) VALUES (gen_random_uuid(), 'lab', now()) RETURNING id`,
    );
    await h.pool.query(
      `INSERT INTO device_group_member (device_id, group_id) SELECT unnest($1::text[]), $2`,
      [all.slice(40, 45), rows[0].id],
    );
    await h.pool.query(`INSERT INTO device_tag (device_id, tag) VALUES ($1, 'demo'), ($2, 'demo')`, [
      all[7],
      all[9000],
    ]);
    expect((await page('group=lab')).body.items.map((d: { id: string }) => d.id)).toEqual(all.slice(40, 45));
    expect((await page('tag=demo')).body.items.map((d: { id: string }) => d.id)).toEqual([all[7], all[9000]]);
    const prefix = all[9000]!.slice(0, 14);
    const search = await page(`q=${encodeURIComponent(prefix.toUpperCase())}`);
    expect(search.body.items.every((d: { id: string }) => d.id.startsWith(prefix))).toBe(true);
    expect(search.body.items.map((d: { id: string }) => d.id)).toContain(all[9000]);
  });

  it('says which query field is wrong', async () => {
    expect((await page('limit=0')).body.issues[0].field).toBe('query.limit');
    expect((await page('online=maybe')).body.issues[0].field).toBe('query.online');
    expect((await page('cursor=not-a-cursor')).body.issues[0].field).toBe('query.cursor');
    const unknown = await page('colour=blue');
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([{ field: 'query.colour', message: 'unknown field' }]);
    // Routes without a query schema take no query either.
    const detail = await h.request('GET', `/api/v1/devices/${all[0]}?verbose=1`, { key: viewer.key });
    expect(detail.body.issues).toEqual([{ field: 'query.verbose', message: 'unknown field' }]);
    // Who is asking is settled first: an anonymous caller learns nothing of a route's inputs.
    const anonymous = await h.request('GET', `/api/v1/devices/${all[0]}?verbose=1`);
    expect(anonymous.status).toBe(401);
    const body = await h.request('POST', '/api/v1/auth/logout', {
      key: viewer.key,
      body: { everywhere: true },
    });
    expect(body.body.issues).toEqual([{ field: 'body', message: 'this route takes no body' }]);
  });
});

describe('a device', () => {
  let h: Harness;
  let viewer: Person;
  let operator: Person;
  let admin: Person;
  let subscriber: Redis;
  const control: unknown[] = [];

  beforeAll(async () => {
    h = await startHarness();
    [viewer, operator, admin] = [
      await h.person('viewer'),
      await h.person('operator'),
      await h.person('admin'),
    ];
    subscriber = createRedis(h.redis.url);
    subscriber.on('message', (_channel: string, message: string) => control.push(JSON.parse(message)));
    await subscriber.subscribe(CONTROL_CHANNEL);
  });
  afterAll(async () => {
    subscriber.disconnect();
    await h.stop();
  });

  it('shows presence, the last status readback, catalog, groups and pending quarantine', async () => {
    const [id] = await insertDevices(h.pool, 1, { online: true });
    await h.pool.query(
      `INSERT INTO connection (id, device_id, client_id, broker_id, keepalive, opened_at, online_at)
       VALUES ('conn-1', $1, '${'c'.repeat(64)}', 'broker-a', 240, now(), now())`,
      [id],
    );
    await h.pool.query(
      `UPDATE device SET connection_id = 'conn-1', last_status = '{"audio_speaker":{"volume":40}}', last_status_at = now() WHERE id = $1`,
      [id],
    );
    await h.pool.query(
      `INSERT INTO device_quarantine (id, device_id, claimed_client_id, body) VALUES (gen_random_uuid(), $1, '${'d'.repeat(64)}', '{}')`,
      [id],
    );
    const r = await h.request('GET', `/api/v1/devices/${id}`, { key: viewer.key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id,
      online: true,
      lastStatus: { audio_speaker: { volume: 40 } },
      connection: { id: 'conn-1', brokerId: 'broker-a' },
      catalog: null,
      groups: [],
      quarantine: [{ claimedClientIdFingerprint: 'dddddddd' }],
      identityChanges: [],
    });
    // DESIGN §3: the Client-Id (here its stored hash) never in an answer, a short fingerprint at most.
    const stored = await h.pool.query<{ client_id: string }>('SELECT client_id FROM device WHERE id = $1', [
      id,
    ]);
    expect(r.body.clientIdFingerprint).toBe(stored.rows[0]!.client_id.slice(0, 8));
    expect(r.body).not.toHaveProperty('clientId');
    expect(r.text).not.toContain('d'.repeat(64));
    expect((await h.request('GET', '/api/v1/devices/ff:ff:ff:ff:ff:ff', { key: viewer.key })).status).toBe(
      404,
    );
  });

  it('lists its presence history, newest first', async () => {
    const [id] = await insertDevices(h.pool, 1, { start: 10 });
    await h.pool.query(
      `INSERT INTO connection (id, device_id, client_id, broker_id, keepalive, opened_at, closed_at, close_reason)
       SELECT 'c' || n, $1, 'cid', 'b', 240, now() - n * interval '1 hour', now() - n * interval '1 hour' + interval '5 minutes', 'keepalive_timeout'
         FROM generate_series(1, 3) n`,
      [id],
    );
    const first = await h.request('GET', `/api/v1/devices/${id}/presence?limit=2`, { key: viewer.key });
    expect(first.body.items.map((c: { connectionId: string }) => c.connectionId)).toEqual(['c1', 'c2']);
    expect(first.body.items[0]).toMatchObject({
      durationS: 300,
      closeReason: 'keepalive_timeout',
      clientIdFingerprint: 'cid',
    });
    expect(first.body.items[0]).not.toHaveProperty('clientId');
    const rest = await h.request(
      'GET',
      `/api/v1/devices/${id}/presence?limit=2&cursor=${first.body.nextCursor}`,
      { key: viewer.key },
    );
    expect(rest.body).toMatchObject({ items: [{ connectionId: 'c3' }], nextCursor: null });
  });

  it('binds a device waiting for activation by its code, once', async () => {
    const [id] = await insertDevices(h.pool, 1, { start: 20 });
    await h.pool.query(
      `UPDATE device SET status = 'awaiting_activation', activation_code = '123456', activation_challenge = 'c' WHERE id = $1`,
      [id],
    );
    const wrong = await h.request('POST', `/api/v1/devices/${id}/bind`, {
      key: operator.key,
      body: { code: '000000' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.issues[0].field).toBe('body.code');
    const bound = await h.request('POST', `/api/v1/devices/${id}/bind`, {
      key: operator.key,
      body: { code: '123456' },
    });
    expect(bound.body).toEqual({ id, status: 'active' });
    const row = await h.pool.query('SELECT status, activation_code FROM device WHERE id = $1', [id]);
    expect(row.rows[0]).toEqual({ status: 'active', activation_code: null });
    const again = await h.request('POST', `/api/v1/devices/${id}/bind`, {
      key: operator.key,
      body: { code: '123456' },
    });
    expect(again.status).toBe(409);
  });

  it('revokes and decommissions, telling the broker to drop the connection', async () => {
    const [id] = await insertDevices(h.pool, 1, { start: 30 });
    const revoked = await h.request('POST', `/api/v1/devices/${id}/revoke`, {
      key: operator.key,
      body: { reason: 'stolen' },
    });
    expect(revoked.body).toEqual({ id, status: 'revoked' });
    await waitFor(
      () =>
        control.some((m) => JSON.stringify(m) === JSON.stringify({ type: 'device.revoked', deviceId: id })),
      {
        what: 'the revocation on fleet:control',
      },
    );
    expect(
      (await h.request('POST', `/api/v1/devices/${id}/decommission`, { key: operator.key })).status,
    ).toBe(403);
    const gone = await h.request('POST', `/api/v1/devices/${id}/decommission`, { key: admin.key });
    expect(gone.body.status).toBe('decommissioned');
    await waitFor(() =>
      control.some(
        (m) => JSON.stringify(m) === JSON.stringify({ type: 'device.decommissioned', deviceId: id }),
      ),
    );
    const back = await h.request('POST', `/api/v1/devices/${id}/reinstate`, { key: admin.key });
    expect(back.status).toBe(409);
    const audit = await h.pool.query(
      `SELECT details FROM audit_event WHERE action = 'device.revoke' AND target_id = $1`,
      [id],
    );
    expect(audit.rows[0].details.body).toEqual({ reason: 'stolen' });
  });
});
