import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  GetTaskResultSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Fleet } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
import type { Json, Person } from '../../test/harness';
import { connectMcp, modernRequest } from '../../test/mcp-clients';
import { startPlatform, type Platform } from '../../test/platform';

// The waits of an outside agent, in each revision /mcp speaks: the SDK's own client as a 2025-11-25 client (tasks,
// URL elicitation) and as a 2025-06-18 one, and hand-built 2026-07-28 requests (no SDK speaks it yet). A read
// answers its verdict in _meta; a reboot waits for a second person on the console's approval page, whatever the
// agent's client answers, completes once that person approves and the device is back, and a withdrawn one ends
// cancelled; a requestState is the server's, used once.
describe('/mcp when a call must wait', () => {
  let p: Platform;
  let fleet: Fleet;
  let operator: Person;
  let approver: Person;
  const clients: Client[] = [];
  const mac = (i: number) => fleet.devices[i]!.mac;

  async function connect(version?: string, capabilities: Record<string, unknown> = {}): Promise<Client> {
    const client = await connectMcp(`${p.h.baseUrl}/mcp`, operator.key, {
      name: `waits-${version ?? 'latest'}`,
      ...(version ? { version } : {}),
      capabilities,
    });
    clients.push(client);
    return client;
  }

  const modern = (
    method: string,
    params: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => modernRequest(`${p.h.baseUrl}/mcp`, operator.key, method, params, headers);

  async function approve(callId: string): Promise<void> {
    const { rows } = await p.h.owner.query('SELECT id FROM approval WHERE call_id = $1', [callId]);
    await waitFor(
      async () => {
        const answer = await p.h.request('POST', `/api/v1/approvals/${rows[0].id}/approve`, {
          key: approver.key,
          body: {},
        });
        return answer.status === 200;
      },
      { what: 'the approval after pre-flight', intervalMs: 100 },
    );
  }

  const callState = async (callId: string) =>
    (await p.h.owner.query('SELECT state, verdict FROM call WHERE id = $1', [callId])).rows[0];
  const confirmations = async (callId: string) =>
    (
      await p.h.owner.query(
        `SELECT details->>'answer' AS answer, details->>'counts_as_approval' AS counts FROM audit_event
          WHERE action = 'call.requester_confirmation' AND target_id = $1`,
        [callId],
      )
    ).rows;

  beforeAll(async () => {
    p = await startPlatform();
    await p.startOrchestrator('waits-a');
    [operator, approver] = await Promise.all([p.h.person('operator'), p.h.person('operator')]);
    fleet = await p.fleet({ count: 3, macPrefix: '02:3c:30' });
  }, 90_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await p?.close();
  });

  it('answers a read with structuredContent and the verdict in _meta, for a 2025-11-25 and a 2025-06-18 client', async () => {
    for (const version of [undefined, '2025-06-18']) {
      const client = await connect(version);
      expect(client.getServerCapabilities()?.tasks).toBeDefined();
      const result = (await client.callTool({
        name: 'call_device_tool',
        arguments: { deviceId: mac(0), tool: 'self.get_device_status' },
      })) as CallToolResult;
      expect(result.structuredContent).toMatchObject({
        verdict: 'verified',
        fromDevice: { structured: { matchesOutputSchema: null } },
      });
      expect((result.structuredContent as Json).fromDevice.structured.value).toMatchObject({
        audio_speaker: expect.any(Object),
      });
      expect(result._meta).toMatchObject({
        verdict: 'verified',
        verified: true,
        evidence: expect.stringMatching(/\/calls\/[0-9a-f-]{36}$/),
      });
    }
  });

  it('gives a 2025-11-25 reboot as a task: input_required with the approval page, the client confirming changes nothing, completed once approved and the device is back', async () => {
    const client = await connect(undefined, { elicitation: { url: {} } });
    const elicited: Json[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicited.push(request.params);
      return { action: 'accept' }; // a headless client accepting its own destructive call
    });
    const created = await client.request(
      {
        method: 'tools/call',
        params: {
          name: 'call_device_tool',
          arguments: { deviceId: mac(1), tool: 'self.reboot' },
          task: { ttl: 60_000 },
        },
      },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    expect(created.task.status).toBe('input_required');
    expect(created.task.statusMessage).toMatch(/approval.*\/approvals\/[0-9a-f-]{36}/);

    const result = client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema, {
      timeout: 120_000,
    });
    await waitFor(async () => (await confirmations(taskId)).length > 0, { what: 'the client’s own answer' });
    expect(elicited[0]).toMatchObject({
      mode: 'url',
      url: expect.stringContaining('/approvals/'),
      elicitationId: taskId,
    });
    expect(await confirmations(taskId)).toEqual([{ answer: 'accept', counts: 'false' }]);
    expect(await callState(taskId)).toEqual({ state: 'awaiting_approval', verdict: null });
    const still = await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
    expect(still.status).toBe('input_required');
    expect(fleet.devices[1]!.bootCount).toBe(1);

    await approve(taskId);
    const done = await result;
    expect(done.structuredContent).toMatchObject({ verdict: 'verified', tool: 'self.reboot' });
    expect(done._meta).toMatchObject({ verified: true, 'io.modelcontextprotocol/related-task': { taskId } });
    expect(fleet.devices[1]!.bootCount).toBe(2);
    const final = await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
    expect(final.status).toBe('completed');
  }, 150_000);

  it('cancels a 2025-11-25 task withdrawn before approval, and answers -32042 to a client that takes no task', async () => {
    const client = await connect(undefined, { elicitation: { url: {} } });
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'call_device_tool', arguments: { deviceId: mac(2), tool: 'self.reboot' }, task: {} },
      },
      CreateTaskResultSchema,
    );
    await client.request(
      { method: 'tasks/cancel', params: { taskId: created.task.taskId } },
      GetTaskResultSchema,
    );
    await waitFor(async () => (await callState(created.task.taskId)).verdict === 'cancelled', {
      what: 'the cancelled verdict',
    });
    const after = await client.request(
      { method: 'tasks/get', params: { taskId: created.task.taskId } },
      GetTaskResultSchema,
    );
    expect(after.status).toBe('cancelled');

    const refused = await client
      .callTool({ name: 'call_device_tool', arguments: { deviceId: mac(2), tool: 'self.reboot' } })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({ code: -32042 });
    const [elicitation] = ((refused as McpError).data as Json).elicitations;
    expect(elicitation).toMatchObject({ mode: 'url', url: expect.stringContaining('/approvals/') });
    // Asked again, the same request joins the call that waits: no second approval is asked for.
    const again = await client
      .callTool({ name: 'call_device_tool', arguments: { deviceId: mac(2), tool: 'self.reboot' } })
      .catch((e: McpError) => e);
    expect(((again as McpError).data as Json).elicitations[0].elicitationId).toBe(elicitation.elicitationId);
    await p.h.request('POST', `/api/v1/calls/${elicitation.elicitationId}/cancel`, {
      key: operator.key,
      body: { reason: 'test over' },
    });
  });

  it('serves 2026-07-28 statelessly: discover, a deterministic tools/list, a read with its verdict, header rules and versions', async () => {
    const discover = await modern('server/discover');
    expect(discover.body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25', '2025-06-18']),
      capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'voice-fleet' } },
    });
    const list = await modern('tools/list');
    const names = list.body.result.tools.map((t: Json) => t.name);
    expect(names).toEqual([...names].sort());
    expect(list.body.result).toMatchObject({
      resultType: 'complete',
      ttlMs: expect.any(Number),
      cacheScope: 'private',
    });

    const read = await modern('tools/call', {
      name: 'call_device_tool',
      arguments: { deviceId: mac(0), tool: 'self.get_device_status' },
      _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    });
    expect(read.body.result).toMatchObject({
      resultType: 'complete',
      structuredContent: { verdict: 'verified' },
      _meta: { verified: true },
    });
    const { rows } = await p.h.owner.query('SELECT traceparent FROM call WHERE id = $1', [
      read.body.result._meta.callId,
    ]);
    expect(rows[0].traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-/);

    const mismatch = await modern(
      'tools/call',
      { name: 'get_call', arguments: {} },
      { 'mcp-name': 'cancel_call' },
    );
    expect(mismatch).toMatchObject({ status: 400, body: { error: { code: -32020 } } });
    const old = await modern(
      'tools/list',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } },
      { 'mcp-protocol-version': '1900-01-01' },
    );
    expect(old).toMatchObject({
      status: 400,
      body: { error: { code: -32022, data: { requested: '1900-01-01' } } },
    });
    expect((await modern('resources/list')).status).toBe(404);
    const get = await fetch(`${p.h.baseUrl}/mcp`, { headers: { authorization: `Bearer ${operator.key}` } });
    expect(get.status).toBe(405);
  });

  it('answers a 2026-07-28 reboot input_required with the approval page; its requestState is used once, a forged one refused, and the client’s accept leaves the call waiting', async () => {
    const args = { deviceId: mac(2), tool: 'self.reboot' };
    const first = await modern('tools/call', { name: 'call_device_tool', arguments: args });
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        approval: {
          method: 'elicitation/create',
          params: { mode: 'url', url: expect.stringContaining('/approvals/') },
        },
      },
    });
    const { requestState } = first.body.result;
    const callId = first.body.result._meta.callId;
    const retry = (state: string, argumentsOf = args) =>
      modern('tools/call', {
        name: 'call_device_tool',
        arguments: argumentsOf,
        inputResponses: { approval: { action: 'accept' } },
        requestState: state,
      });

    const [body, mac_] = requestState.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...claims, expiresAt: claims.expiresAt + 1 })).toString('base64url')}.${mac_}`;
    expect((await retry(forged)).body.error).toMatchObject({
      code: -32602,
      message: 'requestState refused: forged',
    });
    expect((await retry(requestState, { ...args, deviceId: mac(0) })).body.error.message).toBe(
      'requestState refused: another_request',
    );

    const accepted = await retry(requestState);
    expect(accepted.body.result).toMatchObject({ resultType: 'input_required', _meta: { callId } });
    expect(await confirmations(callId)).toEqual([{ answer: 'accept', counts: 'false' }]);
    expect(await callState(callId)).toEqual({ state: 'awaiting_approval', verdict: null });
    expect((await retry(requestState)).body.error.message).toBe('requestState refused: replayed');

    const task = await modern('tools/call', {
      name: 'call_device_tool',
      arguments: args,
      _meta: {
        'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      },
    });
    expect(task.body.result).toMatchObject({
      resultType: 'task',
      task: { taskId: callId, status: 'input_required' },
    });
    const got = await modern('tasks/get', { taskId: callId });
    expect(got.body.result).toMatchObject({
      status: 'input_required',
      inputRequests: { approval: { params: { mode: 'url' } } },
    });
    await modern('tasks/cancel', { taskId: callId });
    await waitFor(async () => (await callState(callId)).verdict === 'cancelled', {
      what: 'the cancelled verdict',
    });
    expect((await modern('tasks/get', { taskId: callId })).body.result.status).toBe('cancelled');
  });
});
