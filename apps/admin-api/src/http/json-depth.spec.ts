import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { depthIssue } from './json-depth';

/** `{"a":{"a":...{"a":1}}}`, `levels` objects deep, as text (JSON.stringify itself would need the stack). */
const nested = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

describe('the depth of a JSON value', () => {
  it('is measured without the stack, and the first place past the limit is named', () => {
    expect(depthIssue(JSON.parse(nested(5000)), 32)).toEqual({ path: Array(32).fill('a'), maxDepth: 32 });
    expect(depthIssue({ tool: 't', arguments: { volume: 40, list: [1, [2]] } }, 4)).toBeUndefined();
    expect(depthIssue([[[[1]]]], 3)).toEqual({ path: [0, 0, 0], maxDepth: 3 });
  });
});

describe('a JSON body nested too deep', () => {
  let h: Harness;
  let operator: Person;
  let device: string;

  beforeAll(async () => {
    h = await startHarness();
    operator = await h.person('operator');
    [device] = (await insertDevices(h.pool, 1)) as [string];
  });
  afterAll(() => h.stop());

  const post = (url: string, body: string) =>
    h.api.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { authorization: `Bearer ${operator.key}`, 'content-type': 'application/json' },
    });

  it("is refused with a 400 naming the field, leaves its audit row, and is counted (5,000 levels in a call's arguments)", async () => {
    const r = await post(
      `/api/v1/devices/${device}/calls`,
      `{"tool":"self.get_device_status","arguments":${nested(5000)}}`,
    );
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({
      code: 'too_deep',
      issues: [{ field: 'body.arguments', message: 'nested deeper than 32 levels' }],
    });
    const { rows } = await h.pool.query<{ details: { status: number; outcome: string; body: unknown } }>(
      `SELECT details FROM audit_event WHERE action = 'call.create' AND operator_id = $1`,
      [operator.operatorId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.details).toMatchObject({ status: 400, outcome: 'refused', error: 'too_deep' });
    expect(JSON.stringify(rows[0]!.details.body)).toContain('nested deeper than 64 levels');
    const { rows: calls } = await h.pool.query('SELECT id FROM call');
    expect(calls).toEqual([]);
    const metrics = await h.request('GET', '/metrics');
    expect(metrics.text).toMatch(
      /admin_api_json_depth_refusals_total\{[^}]*route="\/api\/v1\/devices\/:id\/calls"[^}]*\} 1\n/,
    );
  });

  it('is refused on /mcp too, as a JSON-RPC error', async () => {
    const r = await post('/mcp', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${nested(200)}}`);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { message: expect.stringContaining('too_deep') },
    });
  });

  it('leaves bodies of ordinary depth alone', async () => {
    const r = await post(
      `/api/v1/devices/${device}/calls`,
      JSON.stringify({ tool: 'x', arguments: { a: { b: { c: 1 } } } }),
    );
    expect(r.statusCode).not.toBe(400);
  });
});
