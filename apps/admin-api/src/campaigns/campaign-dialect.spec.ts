import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';

describe('campaign selectors by dialect', () => {
  let h: Harness;
  let operator: Person;
  let listenai: string[];

  beforeAll(async () => {
    h = await startHarness();
    operator = await h.person('operator');
    const all = await insertDevices(h.pool, 6, { start: 300 });
    listenai = all.slice(0, 2);
    await h.pool.query(`UPDATE device SET dialect = 'listenai' WHERE id = ANY ($1)`, [listenai]);
  });
  afterAll(() => h.stop());

  const preview = (selector: Record<string, unknown>) =>
    h.request('POST', '/api/v1/campaigns/preview', { key: operator.key, body: { selector } });

  it('matches one dialect when asked, both otherwise, and says how many of each', async () => {
    const only = await preview({ dialect: 'listenai' });
    expect(only.body).toMatchObject({
      matched: 2,
      sample: listenai,
      byDialect: [{ dialect: 'listenai', devices: 2 }],
    });
    const both = await preview({ board: 'bread-compact-wifi' });
    expect(both.body.byDialect).toEqual([
      { dialect: 'xiaozhi', devices: 4 },
      { dialect: 'listenai', devices: 2 },
    ]);
    const bad = await preview({ dialect: 'mqtt' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].field).toBe('body.selector.dialect');
  });
});
