import { createDatabase, ToolProfilesRepository } from '@fleet/db';
import { SAMPLE_PNG_BASE64 } from '@fleet/device-sim';
import { startPlatform, type Platform } from '../../test/platform-fixture';

// DESIGN §3: through the broker's link, a ListenAI device is discovered and called like any other; only the
// link code knows its envelope. Its model's tool profiles say what its tools are (DESIGN §5); a second model has
// none.
interface SentDown {
  action: string;
  data: { method: string; id: string; params: Record<string, unknown> };
}

describe('ListenAI devices through the real link', () => {
  let p: Platform;
  let operator: string;

  beforeAll(async () => {
    p = await startPlatform();
    operator = await p.operator();
    const profiles = new ToolProfilesRepository(createDatabase(p.sql));
    await profiles.put(
      {
        model: 'arcs-mini',
        catalogHash: '',
        tool: 'set_volume',
        kind: 'action',
        readback: { tool: 'get_volume', arguments: {}, argument: 'value', path: 'value', settleMs: 0 },
        doneWhen: 'verified',
      },
      operator,
    );
    await profiles.put(
      { model: 'arcs-mini', catalogHash: '', tool: 'get_volume', kind: 'read', doneWhen: 'verified' },
      operator,
    );
  });
  afterAll(() => p.close());

  const call = async (device: { mac: string }, tool: string, args: Record<string, unknown> = {}) =>
    p.waitVerdict(await p.call({ device, tool, arguments: args, origin: 'operator', operatorId: operator }));
  const responseRow = async (callId: string) =>
    (await p.evidence(callId)).find((r) => r.stage === 'response')!.payload;

  it('is discovered with initialize and tools/list across two pages of opaque cursors, string ids and no jsonrpc', async () => {
    const device = await p.listenAiDevice();
    const requests = device.observed.received.all.map((t) => JSON.parse(t) as SentDown);
    expect(requests.map((r) => r.data.method)).toEqual(['initialize', 'tools/list', 'tools/list']);
    const [init, first, second] = requests;
    expect(init).toMatchObject({
      action: 'mcp',
      code: '0',
      desc: 'success',
      data: { params: { protocolVersion: '2024-11-05' } },
    });
    expect(init!.data.id).toMatch(/^[0-9a-f]{32}$/);
    expect(first!.data.params).toEqual({ cursor: '' });
    const firstReply = JSON.parse(device.observed.sent.all[1]!) as { result: { nextCursor: string } };
    expect(second!.data.params).toEqual({ cursor: firstReply.result.nextCursor });
    expect(JSON.stringify(requests)).not.toContain('jsonrpc');
    const { rows } = await p.sql.query(
      `SELECT t.name, t.user_only, v.server_name, v.exchanges
         FROM device d JOIN device_catalog_version v ON v.id = d.catalog_version_id
         JOIN tool t ON t.catalog_id = v.catalog_id WHERE d.id = $1 ORDER BY t.position`,
      [device.mac],
    );
    expect(rows.map((r) => r.name)).toEqual(['set_screen', 'set_volume', 'get_volume', 'take_photo']);
    expect(rows.every((r) => r.user_only === false)).toBe(true); // no audience: only an operator's marking gates
    expect(rows[0].server_name).toBe('arcs-mini');
    expect(rows[0].exchanges.map((e: { wireId: string }) => e.wireId)).toEqual(
      requests.map((r) => r.data.id),
    );
  });

  it("verifies a read tool its model's profile calls a read, with no marking on the device, and acknowledges it on a model without one", async () => {
    const mini = await p.listenAiDevice();
    const read = await call(mini, 'get_volume');
    expect(read).toMatchObject({ verdict: 'verified', verdict_reason: 'the reply is the effect of a read' });
    const { rows } = await p.sql.query('SELECT count(*)::int AS n FROM tool_marking WHERE device_id = $1', [
      mini.mac,
    ]);
    expect(rows[0].n).toBe(0);
    const lite = await p.listenAiDevice({
      model: 'arcs-lite',
      serverInfo: { name: 'arcs-lite', version: '0.9.0', instructions: 'no profile' },
    });
    expect((await call(lite, 'get_volume')).verdict).toBe('acknowledged');
  });

  it('verifies set_volume by the get_volume its model profile names, and acknowledges it where none is', async () => {
    const mini = await p.listenAiDevice();
    const verified = await call(mini, 'set_volume', { value: 35 });
    expect(verified).toMatchObject({ verdict: 'verified', verdict_reason: 'the readback equals the target' });
    expect(mini.state.volume).toBe(35);
    const effect = (await p.evidence(verified.id)).find((r) => r.stage === 'effect')!.payload;
    expect(effect).toMatchObject({
      method: 'readback',
      observed: 35,
      expected: { path: 'value', value: 35 },
    });

    const lite = await p.listenAiDevice({
      model: 'arcs-lite',
      serverInfo: { name: 'arcs-lite', version: '0.9.0', instructions: 'no readback' },
    });
    const acknowledged = await call(lite, 'set_volume', { value: 20 });
    expect(acknowledged.verdict).toBe('acknowledged');
    expect((await p.evidence(acknowledged.id)).find((r) => r.stage === 'effect')!.payload).toMatchObject({
      method: 'unverifiable',
    });
    expect(lite.state.volume).toBe(20);
  });

  it('seals an isError:true answer device_error with the device text, and a lying device effect_mismatch', async () => {
    const device = await p.listenAiDevice();
    const failed = await call(device, 'set_screen', { content: 'hi', brightness: 500 });
    expect(failed).toMatchObject({
      verdict: 'device_error',
      verdict_reason: '屏幕设置失败: 参数超出范围 (0-100)',
    });
    expect(await responseRow(failed.id)).toMatchObject({
      isError: true,
      errorText: '屏幕设置失败: 参数超出范围 (0-100)',
    });
    device.setFaults({ lie: true });
    expect((await call(device, 'set_volume', { value: 90 })).verdict).toBe('effect_mismatch');
  });

  it('keeps an image result in the evidence, as the device sent it', async () => {
    const device = await p.listenAiDevice();
    const photo = await call(device, 'take_photo');
    expect(photo.verdict).toBe('acknowledged');
    const response = await responseRow(photo.id);
    const raw = JSON.parse(Buffer.from(response['raw'] as string, 'base64').toString()) as {
      result: { content: unknown[] };
    };
    expect(raw.result.content[1]).toEqual({ type: 'image', data: SAMPLE_PNG_BASE64, mimeType: 'image/png' });
    expect(response['text']).toBe('已拍照');
  });

  it('refuses arguments that do not fit the device schema before anything is sent', async () => {
    const device = await p.listenAiDevice();
    const sentBefore = device.observed.received.all.length;
    expect((await call(device, 'set_volume', { value: 'loud' })).verdict).toBe('invalid_arguments');
    expect((await call(device, 'set_volume', { value: 101 })).verdict).toBe('invalid_arguments');
    expect(device.observed.received.all).toHaveLength(sentBefore);
  });
});
