import { insertCall } from '../../test/fixtures';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';

describe('GET /fleet/summary', () => {
  let h: Harness;
  let viewer: Person;

  beforeAll(async () => {
    h = await startHarness();
    viewer = await h.person('viewer');
    // 10,000 devices of two boards and two firmware versions, 40 of them online, 5 revoked (not counted).
    await insertDevices(h.pool, 6_000, { board: 'bread-compact-wifi', firmware: '1.6.0' });
    await insertDevices(h.pool, 3_960, { start: 6_000, board: 'esp-box-3', firmware: '1.5.2' });
    const online = await insertDevices(h.pool, 40, {
      start: 9_960,
      board: 'esp-box-3',
      firmware: '1.6.0',
      online: true,
    });
    const revoked = await insertDevices(h.pool, 5, { start: 10_000, board: 'esp-box-3' });
    await h.pool.query(`UPDATE device SET status = 'revoked' WHERE id = ANY($1)`, [revoked]);
    await h.pool.query(`UPDATE device SET dialect = 'listenai' WHERE id = ANY($1)`, [online.slice(0, 10)]);
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    for (const [verdict, at] of [
      ['verified', ago(1)],
      ['verified', ago(2)],
      ['no_response', ago(20)],
      ['device_error', ago(50)],
      ['verified', ago(90)], // outside the default hour
    ] as const)
      await insertCall(h.pool, { deviceId: online[0]!, verdict, createdAt: at });
    await insertCall(h.pool, { deviceId: online[1]!, verdict: null }); // not sealed yet: no verdict to count
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('counts the active fleet online and offline, by board, firmware and dialect', async () => {
    const { status, body } = await h.request('GET', '/api/v1/fleet/summary', { key: viewer.key });
    expect(status).toBe(200);
    expect(body.devices).toEqual({ total: 10_000, online: 40, offline: 9_960 });
    expect(body.byBoard).toEqual([
      { board: 'bread-compact-wifi', online: 0, offline: 6_000 },
      { board: 'esp-box-3', online: 40, offline: 3_960 },
    ]);
    expect(body.byFirmware).toEqual([
      { firmware: '1.6.0', online: 40, offline: 6_000 },
      { firmware: '1.5.2', online: 0, offline: 3_960 },
    ]);
    expect(body.byDialect).toEqual([
      { dialect: 'xiaozhi', online: 30, offline: 9_960 },
      { dialect: 'listenai', online: 10, offline: 0 },
    ]);
  });

  it('counts the calls sealed in the window by verdict, and per interval', async () => {
    const { body } = await h.request('GET', '/api/v1/fleet/summary?windowS=3600&bucketS=600', {
      key: viewer.key,
    });
    expect(body.calls.byVerdict).toEqual({ verified: 2, no_response: 1, device_error: 1 });
    expect(body.calls.buckets).toHaveLength(6);
    const perInterval = body.calls.buckets.map((b: { byVerdict: Record<string, number> }) =>
      Object.values(b.byVerdict).reduce((a, n) => a + n, 0),
    );
    expect(perInterval.reduce((a: number, n: number) => a + n, 0)).toBe(4);
    expect(Date.parse(body.calls.to)).toBeGreaterThan(Date.now());
  });

  it('refuses a window of too many intervals, naming the fields, and anyone not signed in', async () => {
    const bad = await h.request('GET', '/api/v1/fleet/summary?windowS=604800&bucketS=60', {
      key: viewer.key,
    });
    expect(bad.status).toBe(400);
    expect((await h.request('GET', '/api/v1/fleet/summary')).status).toBe(401);
  });
});
