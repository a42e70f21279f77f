import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  GetTaskResultSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Fleet } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
import type { Json, Person } from '../../test/harness';
import { connectMcp, modernRequest } from '../../test/mcp-clients';
import { startPlatform, type Platform } from '../../test/platform';

const TASK_ID = /^campaign-([0-9a-f-]{36})$/;

// An agent's campaign on /mcp: one tool call on many devices through the campaign service, as a task. A reboot
// campaign over two simulated devices waits input_required on its console page until a second person approves it
// (the agent's client accepting changes nothing), then completes; read and awaited from another API instance, as
// after a restart. One withdrawn while it waits is cancelled. A viewer is not shown the tool and is refused it;
// a key bounded to device groups runs its campaign on its groups' devices only.
describe('/mcp campaigns as tasks', () => {
  let p: Platform;
  let fleet: Fleet;
  let operator: Person;
  let approver: Person;
  let viewer: Person;
  let replica: { baseUrl: string; stop(): Promise<void> };
  const clients: Client[] = [];
  const mac = (i: number) => fleet.devices[i]!.mac;

  async function connect(
    key: string,
    opts: { baseUrl?: string; version?: string; capabilities?: Record<string, unknown> } = {},
  ) {
    const client = await connectMcp(`${opts.baseUrl ?? p.h.baseUrl}/mcp`, key, {
      name: 'campaign-agent',
      ...(opts.version ? { version: opts.version } : {}),
      capabilities: opts.capabilities ?? {},
    });
    clients.push(client);
    return client;
  }
  const campaign = async (id: string) =>
    (await p.h.request('GET', `/api/v1/campaigns/${id}`, { key: operator.key })).body;
  const audited = async (action: string, id: string) =>
    (
      await p.h.owner.query(
        `SELECT operator_id, details->>'via' AS via, details->>'answer' AS answer,
                details->>'counts_as_approval' AS counts
           FROM audit_event WHERE action = $1 AND target_id = $2`,
        [action, id],
      )
    ).rows;

  beforeAll(async () => {
    p = await startPlatform();
    await p.startOrchestrator('campaigns-a');
    [operator, approver, viewer] = await Promise.all([
      p.h.person('operator'),
      p.h.person('operator'),
      p.h.person('viewer'),
    ]);
    fleet = await p.fleet({ count: 4, macPrefix: '02:3c:50' });
    replica = await p.h.replica();
  }, 90_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await replica?.stop();
    await p?.close();
  });

  it("runs an agent's reboot campaign over two devices as a task: input_required on its console page until a second person approves, then completed, as another API instance also says", async () => {
    const client = await connect(operator.key, { capabilities: { elicitation: { url: {} } } });
    const elicited: Json[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicited.push(request.params);
      return { action: 'accept' }; // the agent's own client saying yes to its own reboot
    });
    const created = await client.request(
      {
        method: 'tools/call',
        params: {
          name: 'run_campaign',
          arguments: { name: 'night reboot', selector: { deviceIds: [mac(0), mac(1)] }, tool: 'self.reboot' },
          task: { ttl: 600_000 },
        },
      },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    const campaignId = TASK_ID.exec(taskId)![1]!;
    expect(created.task.status).toBe('input_required');
    expect(created.task.statusMessage).toContain(`/campaigns/${campaignId}`);
    const waiting = await campaign(campaignId);
    expect(waiting).toMatchObject({
      state: 'awaiting_approval',
      createdBy: operator.operatorId,
      action: { kind: 'tool', tool: 'self.reboot' },
      rollout: { ramp: { initialBatchSize: 1, factor: 2 } },
    });
    expect(await audited('campaign.create', campaignId)).toEqual([
      expect.objectContaining({ operator_id: operator.operatorId, via: 'mcp' }),
    ]);
    expect(await audited('campaign.start', campaignId)).toHaveLength(1);

    const result = client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema, {
      timeout: 120_000,
    });
    await waitFor(async () => (await audited('campaign.requester_confirmation', campaignId)).length > 0, {
      what: 'the client’s own answer',
    });
    expect(elicited[0]).toMatchObject({
      mode: 'url',
      url: expect.stringMatching(new RegExp(`/campaigns/${campaignId}$`)),
      elicitationId: taskId,
    });
    expect(await audited('campaign.requester_confirmation', campaignId)).toEqual([
      expect.objectContaining({ answer: 'accept', counts: 'false' }),
    ]);
    expect((await campaign(campaignId)).state).toBe('awaiting_approval');
    // The person whose credential asked cannot approve it either: a second person must.
    const own = await p.h.request('POST', `/api/v1/approvals/${waiting.approvalId}/approve`, {
      key: operator.key,
      body: {},
    });
    expect(own.status).toBe(403);

    // Another instance (a replica, or this one restarted) knows the task from its row alone.
    const elsewhere = await connect(operator.key, { baseUrl: replica.baseUrl });
    const seen = await elsewhere.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
    expect(seen.status).toBe('input_required');
    const awaited = elsewhere.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema, {
      timeout: 120_000,
    });

    const approved = await p.h.request('POST', `/api/v1/approvals/${waiting.approvalId}/approve`, {
      key: approver.key,
      body: {},
    });
    expect(approved.status).toBe(200);
    const done = await result;
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent).toMatchObject({
      taskId,
      state: 'completed',
      progress: { total: 2, verified: 2 },
      page: expect.stringMatching(new RegExp(`/campaigns/${campaignId}$`)),
    });
    expect(done._meta).toMatchObject({ 'io.modelcontextprotocol/related-task': { taskId } });
    expect((await awaited).structuredContent).toMatchObject({ state: 'completed' });
    expect([fleet.devices[0]!.bootCount, fleet.devices[1]!.bootCount]).toEqual([2, 2]);
    const final = await elsewhere.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
    expect(final.status).toBe('completed');
  }, 150_000);

  it('cancels a 2026-07-28 campaign task withdrawn while it waits for approval, through the campaign’s own cancel', async () => {
    const modern = (method: string, params: Record<string, unknown>, baseUrl = p.h.baseUrl) =>
      modernRequest(`${baseUrl}/mcp`, operator.key, method, params);
    const started = await modern('tools/call', {
      name: 'run_campaign',
      arguments: { selector: { deviceIds: [mac(2)] }, tool: 'self.reboot' },
      _meta: {
        'io.modelcontextprotocol/clientCapabilities': {
          elicitation: { url: {} },
          extensions: { 'io.modelcontextprotocol/tasks': {} },
        },
      },
    });
    expect(started.body.result).toMatchObject({
      resultType: 'task',
      task: { taskId: expect.stringMatching(TASK_ID), status: 'input_required' },
    });
    const taskId = started.body.result.task.taskId;
    const campaignId = TASK_ID.exec(taskId)![1]!;
    const got = await modern('tasks/get', { taskId }, replica.baseUrl);
    expect(got.body.result).toMatchObject({
      status: 'input_required',
      inputRequests: {
        approval: {
          params: { mode: 'url', url: expect.stringMatching(new RegExp(`/campaigns/${campaignId}$`)) },
        },
      },
    });

    expect((await modern('tasks/cancel', { taskId }, replica.baseUrl)).body.result).toEqual(
      expect.objectContaining({ resultType: 'complete' }),
    );
    expect(await campaign(campaignId)).toMatchObject({ state: 'cancelled' });
    expect(await audited('campaign.cancel', campaignId)).toEqual([
      expect.objectContaining({ operator_id: operator.operatorId, via: 'mcp' }),
    ]);
    expect((await modern('tasks/get', { taskId })).body.result.status).toBe('cancelled');
    const again = await modern('tasks/cancel', { taskId });
    expect(again.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/terminal/) });
    expect(fleet.devices[2]!.bootCount).toBe(1);

    // Another credential (even of the same person) sees no such task.
    const otherKey = await p.h.addKey(operator.operatorId, 'operator');
    const stranger = await modernRequest(`${p.h.baseUrl}/mcp`, otherKey, 'tasks/get', { taskId });
    expect(stranger.body.error).toMatchObject({ code: -32602, message: `Task not found: ${taskId}` });
  });

  it('shows run_campaign to operators only: a viewer neither sees it nor may call it', async () => {
    const [asOperator, asViewer] = await Promise.all([connect(operator.key), connect(viewer.key)]);
    expect((await asOperator.listTools()).tools.map((t) => t.name)).toContain('run_campaign');
    const viewerTools = (await asViewer.listTools()).tools.map((t) => t.name);
    expect(viewerTools).not.toContain('run_campaign');
    expect(viewerTools).toContain('find_devices');
    const modernList = await modernRequest(`${p.h.baseUrl}/mcp`, viewer.key, 'tools/list');
    expect(modernList.body.result.tools.map((t: Json) => t.name)).not.toContain('run_campaign');

    const refused = (await asViewer.callTool({
      name: 'run_campaign',
      arguments: { selector: { deviceIds: [mac(3)] }, tool: 'self.get_device_status' },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]).toMatchObject({ text: expect.stringMatching(/^role_required: run_campaign/) });
    const { rows } = await p.h.owner.query(`SELECT count(*)::int AS n FROM campaign WHERE created_by = $1`, [
      viewer.operatorId,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('refuses a campaign its selector gives no device to, and leaves no draft behind', async () => {
    const client = await connect(operator.key);
    const refused = (await client.callTool({
      name: 'run_campaign',
      arguments: { selector: { board: 'no-such-board' }, tool: 'self.get_device_status' },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]).toMatchObject({ text: expect.stringMatching(/^no_devices: /) });
    const { rows } = await p.h.owner.query(
      `SELECT c.state, c.state_reason FROM campaign c JOIN agent_campaign a ON a.campaign_id = c.id
        WHERE c.selector->>'board' = 'no-such-board'`,
    );
    expect(rows).toEqual([{ state: 'cancelled', state_reason: expect.stringMatching(/^could not start: /) }]);
  });

  it('bounds a group-scoped key’s campaign to its groups, and refuses one naming another group', async () => {
    const admin = await p.h.person('admin');
    const makeGroup = async (name: string, members: string[]) => {
      const group = await p.h.request('POST', '/api/v1/groups', {
        key: admin.key,
        body: { name, timeZone: 'UTC' },
      });
      await p.h.request('PUT', `/api/v1/groups/${group.body.id}/members`, {
        key: admin.key,
        body: { add: members, remove: [] },
      });
      return group.body.id as string;
    };
    const kitchen = await makeGroup('kitchen', [mac(3)]);
    await makeGroup('hall', [mac(0)]);
    const key = await p.h.request('POST', '/api/v1/api-keys', {
      key: admin.key,
      body: { operatorId: operator.operatorId, name: 'kitchen agent', role: 'operator', groups: [kitchen] },
    });
    // A 2025-06-18 client takes no tasks: it is answered with the campaign as it stands.
    const bounded = await connect(key.body.key, { version: '2025-06-18' });
    const volumes = fleet.devices.map((d) => d.volume);
    const answer = (await bounded.callTool({
      name: 'run_campaign',
      arguments: {
        selector: { online: true },
        tool: 'self.audio_speaker.set_volume',
        arguments: { volume: 17 },
      },
    })) as CallToolResult;
    expect(answer.isError).toBeFalsy();
    const outcome = answer.structuredContent as Json;
    expect(outcome.state).toMatch(/^(running|completed)$/);
    expect(await campaign(outcome.campaignId)).toMatchObject({
      selector: { online: true, groups: ['kitchen'] },
    });
    await waitFor(async () => (await campaign(outcome.campaignId)).state === 'completed', {
      what: 'the bounded campaign to complete',
      timeoutMs: 30_000,
    });
    expect(fleet.devices.map((d) => d.volume)).toEqual([...volumes.slice(0, 3), 17]);

    const outside = (await bounded.callTool({
      name: 'run_campaign',
      arguments: {
        selector: { groups: ['hall'] },
        tool: 'self.audio_speaker.set_volume',
        arguments: { volume: 5 },
      },
    })) as CallToolResult;
    expect(outside.isError).toBe(true);
    expect(outside.content[0]).toMatchObject({
      text: expect.stringMatching(/^outside_key_scope: body\.selector\.groups/),
    });
  });
});
