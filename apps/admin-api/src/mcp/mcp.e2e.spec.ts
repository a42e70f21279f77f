import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { BREAD_COMPACT_WIFI, type Fleet, type SimDevice } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
import type { Json, Person } from '../../test/harness';
import { startPlatform, type Platform } from '../../test/platform';

// Outside agents as they connect: the SDK's own client over real HTTP, against the platform (the API in-process, the real
// broker and orchestrator) and simulated devices: list tools, a verified set_volume, a rejected self.reboot with
// the device untouched, a viewer who cannot call, a bad argument as a readable tool error; and a call that waits
// for an offline device, reports progress, and is cancelled before it is sent. Last, a board whose tool asks for
// confirmation in its description (DESIGN §4): hidden from the agent and refused.
describe('the fleet as an MCP server', () => {
  let p: Platform;
  let fleet: Fleet;
  let operator: Person;
  let viewer: Person;
  let agent: Client;
  const clients: Client[] = [];

  async function connect(key: string | undefined, name = 'e2e-agent'): Promise<Client> {
    const client = new Client({ name, version: '1.2.3' });
    const transport = new StreamableHTTPClientTransport(new URL(`${p.h.baseUrl}/mcp`), {
      requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const use = (client: Client, name: string, args: Record<string, unknown>, options = {}) =>
    client.callTool({ name, arguments: args }, undefined, options) as Promise<CallToolResult>;
  const call = (client: Client, args: Record<string, unknown>, options = {}) =>
    use(client, 'call_device_tool', args, options);
  const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  const device = (i: number): SimDevice => fleet.devices[i]!;

  beforeAll(async () => {
    p = await startPlatform();
    await p.startOrchestrator('mcp-a');
    [operator, viewer] = await Promise.all([p.h.person('operator'), p.h.person('viewer')]);
    fleet = await p.fleet({ count: 3, macPrefix: '02:3c:01' });
    agent = await connect(operator.key);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await p?.close();
  });

  it('lists its tools with honest annotations and output schemas, and only the AI-visible device tools', async () => {
    const { tools } = await agent.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([
      'announce',
      'call_device_tool',
      'cancel_call',
      'find_devices',
      'get_call',
      'get_device',
      'list_device_tools',
      'run_campaign',
    ]);
    for (const name of ['find_devices', 'get_device', 'list_device_tools', 'get_call']) {
      expect(byName.get(name)!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    }
    expect(byName.get('call_device_tool')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName.get('cancel_call')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
    for (const tool of tools) expect(tool.outputSchema).toMatchObject({ type: 'object' });

    const found = await use(agent, 'find_devices', { online: true });
    expect((found.structuredContent as Json).items.map((d: Json) => d.id)).toEqual(
      fleet.devices.map((d) => d.mac),
    );
    const listed = await use(agent, 'list_device_tools', { deviceId: device(0).mac });
    const names = (listed.structuredContent as Json).tools.map((t: Json) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['self.get_device_status', 'self.audio_speaker.set_volume']),
    );
    for (const hidden of ['self.reboot', 'system.reboot', 'self.upgrade_firmware', 'self.get_system_info']) {
      expect(names).not.toContain(hidden);
    }
    const read = await use(agent, 'get_device', { deviceId: device(0).mac });
    expect(read.structuredContent).toMatchObject({
      id: device(0).mac,
      online: true,
      catalog: { version: 1 },
    });
  });

  it('sets the volume and answers verified, in data and in words, with the agent named in the decision evidence', async () => {
    const result = await call(agent, {
      deviceId: device(0).mac,
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 37 },
      reason: 'the user asked for it quieter',
    });
    expect(result.isError).toBeFalsy();
    const outcome = result.structuredContent as Json;
    expect(outcome).toMatchObject({
      tool: 'self.audio_speaker.set_volume',
      state: 'finished',
      verdict: 'verified',
      effectObserved: true,
      sent: true,
      evidence: { complete: true, missing: [] },
    });
    expect(text(result)).toMatch(/^Verdict: verified — the effect was observed\./);
    expect(device(0).volume).toBe(37);

    const { rows } = await p.h.owner.query(
      `SELECT c.origin, c.agent_id, c.operator_id, e.payload->'requestedBy' AS "requestedBy"
         FROM call c JOIN evidence e ON e.call_id = c.id AND e.stage = 'decision' WHERE c.id = $1`,
      [outcome.callId],
    );
    const apiKeyId = rows[0].requestedBy.apiKeyId;
    expect(rows[0]).toMatchObject({
      origin: 'agent',
      agent_id: `api_key:${apiKeyId}`,
      operator_id: operator.operatorId,
    });
    expect(rows[0].requestedBy.agent).toMatchObject({
      protocol: 'mcp',
      client: { name: 'e2e-agent', version: '1.2.3' },
      apiKeyId,
      operatorId: operator.operatorId,
    });
    const audit = await p.h.owner.query(
      `SELECT operator_id, details->>'via' AS via, details->>'outcome' AS outcome FROM audit_event
        WHERE action = 'call.create' AND target_id = $1`,
      [outcome.callId],
    );
    expect(audit.rows).toEqual([{ operator_id: operator.operatorId, via: 'mcp', outcome: 'done' }]);
  });

  it('announces an alert for its agent through the same gate, and names the agent in the decision evidence', async () => {
    const result = await use(agent, 'announce', {
      deviceId: device(1).mac,
      text: 'Meeting moved to 3 pm',
      how: 'alert',
    });
    expect(result.isError).toBeFalsy();
    const { callId } = result.structuredContent as Json;
    expect(result.structuredContent).toMatchObject({
      state: 'queued',
      evidenceUrl: expect.stringContaining(callId),
    });
    const sealed = await waitFor(
      async () => {
        const read = (await use(agent, 'get_call', { callId })).structuredContent as Json;
        return read.verdict ? read : undefined;
      },
      { what: 'the sealed announcement', intervalMs: 100 },
    );
    expect(sealed).toMatchObject({ verdict: 'no_response', sent: true });
    expect(
      device(1)
        .observed.voiceMessages.all.filter((m) => m.type === 'alert')
        .map((m) => m.message),
    ).toEqual(['Meeting moved to 3 pm']);
    const { rows } = await p.h.owner.query(
      `SELECT payload FROM evidence WHERE call_id = $1 AND stage = 'decision'`,
      [callId],
    );
    expect(rows[0].payload.requestedBy).toMatchObject({ origin: 'agent', agentId: expect.any(String) });

    const tooLarge = await use(agent, 'announce', { deviceId: device(1).mac, text: 'x'.repeat(600) });
    expect(tooLarge.isError).toBe(true);
    expect(text(tooLarge)).toMatch(/announcement_too_large/);
  });

  it("holds self.reboot and system.reboot for a second person's approval, and leaves the device untouched meanwhile", async () => {
    for (const tool of ['self.reboot', 'system.reboot']) {
      const result = await call(agent, { deviceId: device(1).mac, tool, waitS: 0 });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        state: 'awaiting_approval',
        verdict: null,
        sent: false,
        cancellable: true,
      });
      expect(result._meta).toMatchObject({
        verified: false,
        approval: expect.stringMatching(/\/approvals\/[0-9a-f-]{36}$/),
      });
      expect(text(result)).toMatch(/^Not finished yet \(awaiting_approval\)/);
      await use(agent, 'cancel_call', { callId: (result.structuredContent as Json).callId });
    }
    expect(device(1).bootCount).toBe(1);
    const received = device(1).observed.received.all.map((m) => m.text);
    expect(received.filter((t) => t.includes('self.reboot') && t.includes('tools/call'))).toEqual([]);
    expect(received.filter((t) => /"type"\s*:\s*"system"/.test(t))).toEqual([]);
  });

  it('answers a volume of 150 as a tool error the client can read, and sends nothing', async () => {
    const before = device(0).volume;
    const result = await call(agent, {
      deviceId: device(0).mac,
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 150 },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ verdict: 'invalid_arguments', sent: false });
    expect((result.structuredContent as Json).reason).toMatch(/volume/);
    expect(text(result)).toMatch(/invalid_arguments — refused before sending/);
    expect(device(0).volume).toBe(before);
  });

  it('lets a viewer read but not call, and refuses an absent or invalid key with 401', async () => {
    const reader = await connect(viewer.key, 'viewer-agent');
    const found = await use(reader, 'find_devices', {});
    expect((found.structuredContent as Json).items).toHaveLength(3);
    const refused = await call(reader, { deviceId: device(0).mac, tool: 'self.get_device_status' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/role_required: call_device_tool needs the operator role; yours is viewer/);
    const { rows } = await p.h.owner.query(`SELECT count(*)::int AS calls FROM call WHERE operator_id = $1`, [
      viewer.operatorId,
    ]);
    expect(rows[0].calls).toBe(0);
    const denied = await p.h.owner.query(
      `SELECT target_id FROM audit_event WHERE action = 'access.denied' AND operator_id = $1`,
      [viewer.operatorId],
    );
    expect(denied.rows).toEqual([{ target_id: 'call_device_tool' }]);

    await expect(connect(undefined)).rejects.toMatchObject({ code: 401 });
    await expect(connect('fk_notakey_0000000000000000000000000000')).rejects.toMatchObject({ code: 401 });

    // A session belongs to the credential that opened it; one this process does not know is 404 (initialize again).
    const post = (sessionId: string) =>
      fetch(`${p.h.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${viewer.key}`,
          'mcp-session-id': sessionId,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const agentSession = (agent.transport as StreamableHTTPClientTransport).sessionId!;
    expect((await post(agentSession)).status).toBe(403);
    const unknown = await post('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: -32001 } });
  });

  it('reports progress while a call waits for an offline device, and a cancellation ends it cancelled before it is sent', async () => {
    const offline = device(2);
    await offline.stop();
    await waitFor(async () => {
      const { rows } = await p.h.owner.query('SELECT online FROM device WHERE id = $1', [offline.mac]);
      return rows[0].online === false;
    });
    const progress: Progress[] = [];
    const notices: Json[] = [];
    agent.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      notices.push(n.params.data);
    });
    const abort = new AbortController();
    const pending = call(
      agent,
      { deviceId: offline.mac, tool: 'self.audio_speaker.set_volume', arguments: { volume: 20 }, waitS: 30 },
      {
        signal: abort.signal,
        onprogress: (p: Progress) => {
          progress.push(p);
          if (p.message?.includes('waiting_for_device')) abort.abort('the user changed their mind');
        },
      },
    );
    await expect(pending).rejects.toThrow();
    expect(progress.map((p) => p.progress)).toEqual([1, 2]);
    expect(progress[1]!.message).toMatch(
      /^call [0-9a-f-]{36} waiting_for_device: .*cancelling the request withdraws it/,
    );
    const callId = /^call ([0-9a-f-]{36})/.exec(progress[1]!.message!)![1]!;

    const sealed = await waitFor(
      async () => {
        const read = (await use(agent, 'get_call', { callId })).structuredContent as Json;
        return read.verdict ? read : undefined;
      },
      { what: 'the cancelled verdict', intervalMs: 100 },
    );
    expect(sealed).toMatchObject({ verdict: 'cancelled', sent: false, cancellable: false });
    expect(sealed.reason).toMatch(/the MCP client cancelled the request/);
    await waitFor(() => notices.length > 0, { what: 'the cancellation notice' });
    expect(notices).toEqual([{ callId, cancelled: true, message: 'cancelled before it was sent' }]);
    const audit = await p.h.owner.query(
      `SELECT details->>'outcome' AS outcome FROM audit_event WHERE action = 'call.cancel' AND target_id = $1`,
      [callId],
    );
    expect(audit.rows).toEqual([{ outcome: 'done' }]);
  });

  it('answers with the state and the callId when the wait ends first, and cancel_call withdraws only what was not sent', async () => {
    const waiting = await call(agent, {
      deviceId: device(2).mac,
      tool: 'self.screen.set_brightness',
      arguments: { brightness: 10 },
      waitS: 0,
    });
    expect(waiting.isError).toBeFalsy();
    const outcome = waiting.structuredContent as Json;
    expect(outcome).toMatchObject({ verdict: null, sent: false, cancellable: true });
    expect(text(waiting)).toMatch(/^Not finished yet/);
    expect(text(waiting)).toContain(`Call ${outcome.callId}`);

    const cancelled = await use(agent, 'cancel_call', { callId: outcome.callId });
    expect(cancelled.isError).toBeFalsy();
    expect(cancelled.structuredContent).toMatchObject({ verdict: 'cancelled' });

    const { rows } = await p.h.owner.query(
      `SELECT id FROM call WHERE origin = 'agent' AND verdict = 'verified' LIMIT 1`,
    );
    const tooLate = await use(agent, 'cancel_call', { callId: rows[0].id });
    expect(tooLate.isError).toBe(true);
    expect(text(tooLate)).toMatch(/a sent call cannot be cancelled/);
  });

  it('hides a tool whose description asks for confirmation from the agent, and holds it for approval when named', async () => {
    const cautious = await p.fleet({
      count: 1,
      macPrefix: '02:3c:02',
      relayTools: undefined,
      board: {
        ...BREAD_COMPACT_WIFI,
        boardTools: [
          {
            name: 'self.system.reconfigure_wifi',
            description:
              'End this conversation and enter WiFi configuration mode. **CAUTION** You must ask the user to confirm this action.',
            properties: [],
            userOnly: false,
          },
        ],
      },
    });
    const mac = cautious.devices[0]!.mac;
    const listed = await use(agent, 'list_device_tools', { deviceId: mac });
    const names = (listed.structuredContent as Json).tools.map((t: Json) => t.name);
    expect(names).toContain('self.get_device_status');
    expect(names).not.toContain('self.system.reconfigure_wifi');
    const result = await call(agent, { deviceId: mac, tool: 'self.system.reconfigure_wifi', waitS: 0 });
    expect(result.structuredContent).toMatchObject({
      state: 'awaiting_approval',
      verdict: null,
      sent: false,
    });
    const { rows } = await p.h.owner.query(
      `SELECT a.state, a.requested_by FROM approval a WHERE a.call_id = $1`,
      [(result.structuredContent as Json).callId],
    );
    expect(rows).toEqual([{ state: 'pending', requested_by: operator.operatorId }]);
  });
});
