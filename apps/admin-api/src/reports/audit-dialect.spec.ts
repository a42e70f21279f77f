import { parse } from 'csv-parse/sync';
import { insertCall } from '../../test/fixtures';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';

describe('the audit report by dialect', () => {
  let h: Harness;
  let viewer: Person;
  let xiaozhi: string;
  let listenai: string;
  const day = new Date('2026-04-01T00:00:00Z');
  const period = `from=${day.toISOString()}&to=${new Date(day.getTime() + 86_400_000).toISOString()}`;

  beforeAll(async () => {
    h = await startHarness();
    viewer = await h.person('viewer');
    [xiaozhi, listenai] = (await insertDevices(h.pool, 2)) as [string, string];
    await h.pool.query(`UPDATE device SET dialect = 'listenai' WHERE id = $1`, [listenai]);
    const at = (m: number) => new Date(day.getTime() + m * 60_000);
    await insertCall(h.pool, { deviceId: xiaozhi, verdict: 'verified', createdAt: at(1) });
    await insertCall(h.pool, {
      deviceId: listenai,
      tool: 'set_volume',
      verdict: 'acknowledged',
      createdAt: at(2),
    });
    await insertCall(h.pool, {
      deviceId: listenai,
      tool: 'set_volume',
      verdict: 'verified',
      createdAt: at(3),
    });
  });
  afterAll(() => h.stop());

  it('counts calls by dialect and names the dialect of every call it lists', async () => {
    const r = await h.request('GET', `/api/v1/reports/audit?${period}`, { key: viewer.key });
    expect(r.body.calls).toMatchObject({ total: 3, byDialect: { xiaozhi: 1, listenai: 2 } });
    expect(r.body.effectNotVerified.items).toEqual([
      expect.objectContaining({ deviceId: listenai, dialect: 'listenai' }),
    ]);
    const csv = await h.request('GET', `/api/v1/reports/audit?${period}&format=csv`, { key: viewer.key });
    const rows = parse<{ device_id: string; dialect: string }>(csv.text, { columns: true });
    expect(rows.map((row) => [row.device_id, row.dialect])).toEqual([
      [xiaozhi, 'xiaozhi'],
      [listenai, 'listenai'],
      [listenai, 'listenai'],
    ]);
  });

  it('filters every section to one dialect', async () => {
    const r = await h.request('GET', `/api/v1/reports/audit?${period}&dialect=listenai`, { key: viewer.key });
    expect(r.body.period.dialect).toBe('listenai');
    expect(r.body.calls).toMatchObject({
      total: 2,
      byVerdict: { verified: 1, acknowledged: 1 },
      byDialect: { listenai: 2 },
    });
    expect(r.body.evidenceCompleteness.sealedCalls).toBe(2);
    const csv = await h.request('GET', `/api/v1/reports/audit?${period}&format=csv&dialect=xiaozhi`, {
      key: viewer.key,
    });
    expect(parse<{ dialect: string }>(csv.text, { columns: true }).map((row) => row.dialect)).toEqual([
      'xiaozhi',
    ]);
    const bad = await h.request('GET', `/api/v1/reports/audit?${period}&dialect=zigbee`, { key: viewer.key });
    expect(bad.body.issues[0].field).toBe('query.dialect');
  });
});
