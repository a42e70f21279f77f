import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ARCS_MINI_TOOLS, type ListenAiDevice, type ListenAiTool, type SimDevice } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
import { startE2ePlatform, type E2ePlatform } from './platform';

const SET_VOLUME = 'self.audio_speaker.set_volume';

// A ListenAI maker that kept xiaozhi's name for its volume tool: one campaign can then span both dialects. Its
// effect is checked by the readback its model's tool profile names, not by self.get_device_status (it has none).
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
  {
    name: 'set_led',
    description: '设置指示灯颜色',
    inputSchema: {
      type: 'object',
      properties: { color: { type: 'string', enum: ['red', 'green', 'blue', 'off'] } },
      required: ['color'],
    },
    changesState: true,
    run: () => ({ content: [{ type: 'text', text: 'ok' }], isError: false }),
  },
  ...ARCS_MINI_TOOLS,
];
// Its model's tool profile: the volume it sets is what get_volume reads back.
const COMPAT_PROFILE = {
  model: 'arcs-compat',
  tool: SET_VOLUME,
  kind: 'action',
  readback: { tool: 'get_volume', argument: 'volume', path: 'value' },
};

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
    p = await startE2ePlatform({ orchestratorEnv: { CAMPAIGN_TICK_MS: '200' } });
    key = await p.operatorKey();
    expect((await api('PUT', '/tool-profiles', COMPAT_PROFILE)).status).toBe(200);
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

  it("runs one capability campaign over both families, each device through its own model's tool, verified on both", async () => {
    // The ListenAI model's own setter carries "volume" (its profile); xiaozhi's is the firmware's built-in one.
    const profile = await api('PUT', '/tool-profiles', {
      model: 'arcs-compat',
      tool: 'set_volume',
      kind: 'action',
      readback: { tool: 'get_volume', argument: 'value', path: 'value' },
      capability: { name: 'volume', argument: 'value' },
    });
    expect(profile.status).toBe(200);
    const deviceIds = [...xiaozhi, ...listenai].map((d) => d.mac);
    const created = await api('POST', '/campaigns', {
      name: 'volume 40 everywhere',
      selector: { deviceIds },
      action: { kind: 'capability', capability: 'volume', value: 40 },
      rollout: { batchSize: 4, maxInFlight: 4 },
      doneWhen: 'verified',
    });
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    expect((await api('POST', `/campaigns/${id}/start`)).body['state']).toBe('running');
    const done = await waitFor(
      async () => {
        const c = await api('GET', `/campaigns/${id}`);
        return c.body['state'] === 'completed' && c.body;
      },
      { what: 'the capability campaign completed', timeoutMs: 30_000 },
    );
    expect(done['progress']).toMatchObject({ total: 4, verified: 4, failed: 0 });
    expect([...xiaozhi.map((d) => d.volume), ...listenai.map((d) => d.state.volume)]).toEqual([
      40, 40, 40, 40,
    ]);
    const { rows } = await p.sql.query<{ device_id: string; tool: string; arguments: unknown }>(
      'SELECT device_id, tool, arguments FROM call WHERE campaign_id = $1 ORDER BY device_id',
      [id],
    );
    expect(rows.map((r) => [r.tool, r.arguments])).toEqual([
      [SET_VOLUME, { volume: 40 }],
      [SET_VOLUME, { volume: 40 }],
      ['set_volume', { value: 40 }],
      ['set_volume', { value: 40 }],
    ]);
  });

  it('counts acknowledged as done only in a campaign that says so, and its abort rule with it', async () => {
    const deviceIds = listenai.map((d) => d.mac);
    const run = async (doneWhen: string) => {
      const created = await api('POST', '/campaigns', {
        name: `screen (${doneWhen})`,
        selector: { deviceIds },
        action: { kind: 'tool', tool: 'set_screen', arguments: { content: doneWhen } },
        abortRule: { failureRate: 0.5, minDevices: 2 },
        doneWhen,
      });
      const id = created.body['id'] as string;
      await api('POST', `/campaigns/${id}/start`);
      return waitFor(
        async () => {
          const c = await api('GET', `/campaigns/${id}`);
          return ['completed', 'aborted'].includes(c.body['state'] as string) && c.body;
        },
        { what: `the ${doneWhen} campaign to end`, timeoutMs: 30_000 },
      );
    };
    const lenient = await run('verified_or_acknowledged');
    expect(lenient).toMatchObject({ state: 'completed', progress: { acknowledged: 2, failed: 0 } });
    const strict = await run('verified');
    expect(strict).toMatchObject({ state: 'aborted', progress: { acknowledged: 0, failed: 2 } });
  });

  it("refuses a value outside the schema's enum before anything is sent, naming the field", async () => {
    const device = listenai[0]!;
    const sentBefore = device.observed.received.all.length;
    const created = await api('POST', `/devices/${device.mac}/calls`, {
      tool: 'set_led',
      arguments: { color: 'purple' },
    });
    const call = await waitFor(
      async () => {
        const r = await api('GET', `/calls/${String(created.body['id'])}`);
        return r.body['verdict'] ? r.body : undefined;
      },
      { what: 'the verdict of set_led' },
    );
    expect(call).toMatchObject({
      verdict: 'invalid_arguments',
      verdictReason: 'argument "color" must be one of "red", "green", "blue", "off"',
    });
    expect(device.observed.received.all).toHaveLength(sentBefore);
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

  it("holds a capability campaign for a second person when its model's tool is sensitive, then runs it on that approval", async () => {
    // Runs last: the screen setter stays sensitive for this model from here on.
    const profile = await api('PUT', '/tool-profiles', {
      model: 'arcs-compat',
      tool: 'set_screen',
      kind: 'sensitive',
      capability: { name: 'screen', argument: 'content' },
    });
    expect(profile.status).toBe(200);
    const deviceIds = listenai.map((d) => d.mac);
    const action = { kind: 'capability', capability: 'screen', value: '请稍候' };
    const preview = await api('POST', '/campaigns/preview', { selector: { deviceIds }, action });
    expect(preview.body['needsApproval']).toBe(true);
    const created = await api('POST', '/campaigns', {
      name: 'screen notice',
      selector: { deviceIds },
      action,
      rollout: { batchSize: 2, maxInFlight: 2 },
      doneWhen: 'verified_or_acknowledged',
    });
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    expect((await api('POST', `/campaigns/${id}/start`)).body['state']).toBe('awaiting_approval');
    // Nothing is asked of any device while the campaign waits: no call exists to be refused.
    const none = await p.sql.query('SELECT 1 FROM call WHERE campaign_id = $1', [id]);
    expect(none.rows).toHaveLength(0);
    expect((await api('POST', `/campaigns/${id}/approve`)).status).toBe(403); // four eyes
    const approverKey = await p.operatorKey();
    const approved = await fetch(`${p.apiUrl}/api/v1/campaigns/${id}/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${approverKey}` },
    });
    expect(((await approved.json()) as Record<string, unknown>)['state']).toBe('running');
    const done = await waitFor(
      async () => {
        const c = await api('GET', `/campaigns/${id}`);
        return c.body['state'] === 'completed' && c.body;
      },
      { what: 'the approved capability campaign completed', timeoutMs: 30_000 },
    );
    expect(done['progress']).toMatchObject({ total: 2, acknowledged: 2, failed: 0 });
    expect(listenai.map((d) => d.state.screen.content)).toEqual(['请稍候', '请稍候']);
    const { rows } = await p.sql.query<{ tool: string; approval: { state: string; campaignId: string } }>(
      `SELECT c.tool, e.payload->'approval' AS approval FROM call c
         JOIN evidence e ON e.call_id = c.id AND e.stage = 'decision' WHERE c.campaign_id = $1`,
      [id],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.tool).toBe('set_screen');
      expect(row.approval).toMatchObject({ state: 'approved', campaignId: id });
    }
  });
});
