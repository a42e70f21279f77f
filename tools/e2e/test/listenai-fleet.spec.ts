import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ARCS_MINI_TOOLS, type ListenAiDevice, type ListenAiTool, type SimDevice } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
import { startE2ePlatform, type E2ePlatform } from './platform';

const SET_VOLUME = 'self.audio_speaker.set_volume';

// A ListenAI maker that kept xiaozhi's name for its volume tool: one campaign can then span both dialects. Its
// effect is checked by the readback configured for its model, not by self.get_device_status (it has none).
const COMPAT_TOOLS: readonly ListenAiTool[] = [
  {
    name: SET_VOLUME,
    description: '设置音量',
    inputSchema: {
      type: 'object',
      properties: { volume: { type: 'integer', minimum: 0, maximum: 100 } },
      required: ['volume'],
    },
    changesState: true,
    run(args, state) {
      state.volume = args['volume'] as number;
      return { content: [{ type: 'text', text: 'ok' }], isError: false };
    },
  },
  ...ARCS_MINI_TOOLS,
];
const READBACKS = JSON.stringify([
  { model: 'arcs-compat', tool: SET_VOLUME, argument: 'volume', read: { tool: 'get_volume' }, path: 'value' },
]);

interface Registered {
  deviceId: string;
  linkUrl: string;
  token: { secret: string };
}

describe('ListenAI devices beside xiaozhi ones', () => {
  let p: E2ePlatform;
  let key: string;
  let xiaozhi: SimDevice[];
  let listenai: ListenAiDevice[];
  let agent: Client;

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${p.apiUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    p = await startE2ePlatform({ orchestratorEnv: { MODEL_READBACKS: READBACKS, CAMPAIGN_TICK_MS: '200' } });
    key = await p.operatorKey();
    xiaozhi = [await p.device('02:e3:00:00:00:01'), await p.device('02:e3:00:00:00:02')];
    listenai = [];
    for (const mac of ['02:e3:00:00:01:01', '02:e3:00:00:01:02']) {
      const registered = await api('POST', '/devices', {
        id: mac,
        dialect: 'listenai',
        model: 'arcs-compat',
      });
      expect(registered.status).toBe(201);
      const { linkUrl, token } = registered.body as unknown as Registered;
      expect(linkUrl).toBe(p.brokerUrls.link);
      listenai.push(await p.listenAiDevice(mac, token.secret, { tools: COMPAT_TOOLS }));
    }
    agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${p.apiUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await agent?.close().catch(() => undefined);
    await p?.close();
  });

  it('run one campaign across both dialects to completion, each device verified by its own readback', async () => {
    const deviceIds = [...xiaozhi, ...listenai].map((d) => d.mac);
    const preview = await api('POST', '/campaigns/preview', { selector: { deviceIds } });
    expect(preview.body['byDialect']).toEqual(
      expect.arrayContaining([
        { dialect: 'xiaozhi', devices: 2 },
        { dialect: 'listenai', devices: 2 },
      ]),
    );
    const created = await api('POST', '/campaigns', {
      name: 'quieter everywhere',
      selector: { deviceIds },
      action: { kind: 'tool', tool: SET_VOLUME, arguments: { volume: 25 } },
      rollout: { batchSize: 4, maxInFlight: 4 },
    });
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    expect((await api('POST', `/campaigns/${id}/start`)).body['state']).toBe('running');
    const done = await waitFor(
      async () => {
        const c = await api('GET', `/campaigns/${id}`);
        return c.body['state'] === 'completed' && c.body;
      },
      { what: 'the campaign completed', timeoutMs: 30_000 },
    );
    expect(done['progress']).toMatchObject({ total: 4, verified: 4, failed: 0 });
    expect([...xiaozhi.map((d) => d.volume), ...listenai.map((d) => d.state.volume)]).toEqual([
      25, 25, 25, 25,
    ]);
    const { rows } = await p.sql.query<{ device_id: string; payload: { readback: { text?: string }[] } }>(
      `SELECT c.device_id, e.payload FROM call c JOIN evidence e ON e.call_id = c.id AND e.stage = 'effect'
        WHERE c.campaign_id = $1 AND c.device_id = ANY ($2)`,
      [id, listenai.map((d) => d.mac)],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.payload.readback[0]!.text).toBe('{"value":25}');
  });

  it('shows an agent the ListenAI tools under the same gate: one an operator marked sensitive is hidden and, asked for by name, waits for a person', async () => {
    const device = listenai[0]!;
    const marked = await api('PUT', `/devices/${device.mac}/tools/take_photo`, { sensitive: true });
    expect(marked.status).toBe(200);
    const listed = (await agent.callTool({
      name: 'list_device_tools',
      arguments: { deviceId: device.mac },
    })) as CallToolResult;
    const names = (listed.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['set_screen', 'set_volume', 'get_volume', SET_VOLUME]));
    expect(names).not.toContain('take_photo');
    const waiting = (await agent.callTool({
      name: 'call_device_tool',
      arguments: { deviceId: device.mac, tool: 'take_photo' },
    })) as CallToolResult;
    expect(waiting.structuredContent).toMatchObject({
      state: 'awaiting_approval',
      verdict: null,
      sent: false,
    });
    expect(device.state.photos).toBe(0);
    const screen = (await agent.callTool({
      name: 'call_device_tool',
      arguments: { deviceId: device.mac, tool: 'set_screen', arguments: { content: '你好' } },
    })) as CallToolResult;
    expect(screen.structuredContent).toMatchObject({ verdict: 'acknowledged', sent: true });
    expect(device.state.screen.content).toBe('你好');
  });
});
