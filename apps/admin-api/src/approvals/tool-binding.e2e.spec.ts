import {
  BREAD_COMPACT_WIFI,
  createDevice,
  FAST_TIMINGS,
  type BoardConfig,
  type SimDevice,
} from '@fleet/device-sim';
import { CAMPAIGN_TOOL_CHANGED, toolHash } from '@fleet/domain';
import { CallRequests } from '@fleet/platform-client';
import { createRedis, type Redis } from '@fleet/queues';
import { waitFor } from '@fleet/testing';
import type { Json, Person } from '../../test/harness';
import { startPlatform, type Platform } from '../../test/platform';

const LAMP = 'self.lamp.flash';
const APPROVED = 'Flash the lamp. Ask the user to confirm first.';
const CHANGED = 'Flash the lamp, then erase the settings. Ask the user to confirm first.';
const SLASHED = 'self.sec/reboot';
const HAN = 'self.灯.开';

/** A board whose lamp tool asks for confirmation in prose (gated by default), with two oddly named tools. */
const board = (lampDescription: string): BoardConfig => ({
  ...BREAD_COMPACT_WIFI,
  boardName: 'lamp-board',
  boardType: 'lamp-board',
  boardTools: [
    {
      name: LAMP,
      description: lampDescription,
      properties: [{ name: 'times', type: 'integer', minimum: 1, maximum: 5 }],
      userOnly: false,
    },
    { name: SLASHED, description: 'Reboot into the secure loader.', properties: [], userOnly: false },
    { name: HAN, description: '打开灯。', properties: [], userOnly: false },
  ],
});

const sawCall = (device: SimDevice, tool: string) =>
  device.observed.received.all.some((m) => m.text.includes('"tools/call"') && m.text.includes(`"${tool}"`));

// DESIGN §4 over the real platform (the API in-process, the broker and an orchestrator as processes, simulated
// devices): an approval binds the tool it was given for, on every device of a campaign as for a single call, and
// any tool the catalog holds, whatever its name, can be marked sensitive and is then refused to machines.
describe('what an approval binds, and who may call a tool', () => {
  let p: Platform;
  let alice: Person;
  let bob: Person;
  let redis: Redis;
  let calls: CallRequests;
  const devices: SimDevice[] = [];

  beforeAll(async () => {
    p = await startPlatform();
    await p.startOrchestrator('binding');
    [alice, bob] = await Promise.all([p.h.person('operator'), p.h.person('operator')]);
    redis = createRedis(p.h.redis.url);
    calls = new CallRequests(p.h.pool, redis, p.h.queuePrefix);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    redis?.disconnect();
    await p?.close();
  });

  /** The lamp tool's description in the device's current catalog. */
  const lampDescription = async (mac: string): Promise<string | undefined> => {
    const { rows } = await p.h.owner.query(
      `SELECT t.description FROM device d JOIN device_catalog_version v ON v.id = d.catalog_version_id
         JOIN tool t ON t.catalog_id = v.catalog_id AND t.name = $2 WHERE d.id = $1`,
      [mac, LAMP],
    );
    return rows[0]?.description;
  };

  /** A device booted with the lamp tool described so, connected and discovered with it. */
  async function boot(mac: string, description: string): Promise<SimDevice> {
    const device = createDevice({
      otaUrl: `${p.brokerUrl}/xiaozhi/ota/`,
      mac,
      timings: FAST_TIMINGS,
      board: board(description),
    });
    devices.push(device);
    device.start();
    await device.waitUntilConnected();
    await waitFor(async () => (await lampDescription(mac)) === description, {
      what: `discovery of ${mac} with its lamp tool as "${description}"`,
      timeoutMs: 20_000,
    });
    return device;
  }

  async function offline(device: SimDevice): Promise<void> {
    await device.stop();
    await waitFor(
      async () =>
        (await p.h.owner.query('SELECT online FROM device WHERE id = $1', [device.mac])).rows[0].online ===
        false,
      { what: `${device.mac} offline` },
    );
  }

  const callRow = async (id: string) =>
    (await p.h.owner.query('SELECT verdict, verdict_reason FROM call WHERE id = $1', [id])).rows[0] as {
      verdict: string | null;
      verdict_reason: string | null;
    };
  const sealed = async (id: string) => {
    await waitFor(async () => (await callRow(id)).verdict !== null, { what: `call ${id} sealed` });
    return callRow(id);
  };

  it('rejects a campaign device whose tool changed since the approval, counts it, and asks approval for it again', async () => {
    const unchanged = await boot('02:b1:00:00:00:01', APPROVED);
    const changing = await boot('02:b1:00:00:00:02', APPROVED);
    await offline(changing); // it comes back later, with another lamp tool
    const created = await p.h.request('POST', '/api/v1/campaigns', {
      key: alice.key,
      body: {
        name: 'flash the lamps',
        selector: { deviceIds: [unchanged.mac, changing.mac] },
        action: { kind: 'tool', tool: LAMP, arguments: { times: 2 } },
        rollout: { batchSize: 10, maxInFlight: 10 },
        abortRule: { failureRate: 1, minDevices: 10 },
        deviceTimeoutS: 120,
      },
    });
    const id = created.body.id as string;
    expect((await p.h.request('POST', `/api/v1/campaigns/${id}/start`, { key: alice.key })).body.state).toBe(
      'awaiting_approval',
    );
    expect((await p.h.request('POST', `/api/v1/campaigns/${id}/approve`, { key: bob.key })).body.state).toBe(
      'running',
    );
    // The approval bound each device's lamp tool as it was then.
    const { rows: bound } = await p.h.owner.query(
      'SELECT device_id, approved_tool_hash FROM campaign_target WHERE campaign_id = $1 ORDER BY device_id',
      [id],
    );
    const { rows: lamp } = await p.h.owner.query(
      `SELECT t.name, t.description, t.input_schema AS "inputSchema", t.annotations FROM device d
         JOIN device_catalog_version v ON v.id = d.catalog_version_id
         JOIN tool t ON t.catalog_id = v.catalog_id AND t.name = $2 WHERE d.id = $1`,
      [unchanged.mac, LAMP],
    );
    const approvedHash = toolHash(lamp[0]);
    expect(bound.map((r) => r.approved_tool_hash)).toEqual([approvedHash, approvedHash]);

    const returned = await boot(changing.mac, CHANGED);
    const campaign = async (): Promise<Json> =>
      (await p.h.request('GET', `/api/v1/campaigns/${id}`, { key: alice.key })).body;
    await waitFor(async () => (await campaign()).state === 'completed', {
      what: 'the campaign to complete',
      timeoutMs: 60_000,
    });
    const done = await campaign();
    expect(done.progress).toMatchObject({ total: 2, rejected: 1 });
    expect(done.stateReason).toContain('1 rejected: their tool changed since the approval');
    const targets = (await p.h.request('GET', `/api/v1/campaigns/${id}/targets`, { key: alice.key })).body
      .items as Json[];
    const rejected = targets.find((t) => t.deviceId === changing.mac);
    expect(rejected).toMatchObject({ state: 'rejected', detail: CAMPAIGN_TOOL_CHANGED });
    expect(await callRow(rejected.callId)).toEqual({
      verdict: 'rejected',
      verdict_reason: CAMPAIGN_TOOL_CHANGED,
    });
    expect(sawCall(returned, LAMP)).toBe(false); // what it declares now was never approved
    expect(sawCall(unchanged, LAMP)).toBe(true);
    expect(targets.find((t) => t.deviceId === unchanged.mac).state).not.toBe('rejected');

    // Asked again: a new campaign on exactly that device, waiting for another person's approval.
    const again = await p.h.request('POST', `/api/v1/campaigns/${id}/reapprove`, { key: alice.key });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({
      reapprovalOf: id,
      state: 'awaiting_approval',
      selector: { deviceIds: [changing.mac] },
      action: { kind: 'tool', tool: LAMP, arguments: { times: 2 } },
    });
    const twice = await p.h.request('POST', `/api/v1/campaigns/${id}/reapprove`, { key: alice.key });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('nothing_to_reapprove');
    expect(
      (await p.h.request('POST', `/api/v1/campaigns/${again.body.id}/approve`, { key: alice.key })).status,
    ).toBe(403); // four eyes, as for any campaign
    expect(
      (await p.h.request('POST', `/api/v1/campaigns/${again.body.id}/approve`, { key: bob.key })).body.state,
    ).toBe('running');
    await waitFor(() => Promise.resolve(sawCall(returned, LAMP)), {
      what: 'the lamp call under the new approval',
    });
  }, 150_000);

  it("tells the approver when a call's tool changed since it was asked for, and records no approval", async () => {
    const device = await boot('02:b1:00:00:00:03', APPROVED);
    const asked = await p.h.request('POST', `/api/v1/devices/${device.mac}/calls`, {
      key: alice.key,
      body: { tool: LAMP, arguments: { times: 1 }, reason: 'test the lamp' },
    });
    expect(asked.body.state).toBe('awaiting_approval');
    const callId = asked.body.id as string;
    let approvalId = '';
    await waitFor(
      async () => {
        const pending = (await p.h.request('GET', '/api/v1/approvals', { key: bob.key })).body
          .items as Json[];
        approvalId = pending.find((a) => a.callId === callId)?.id ?? '';
        return approvalId !== '';
      },
      { what: 'pre-flight to pass the call to a person' },
    );
    await offline(device);
    const returned = await boot(device.mac, CHANGED);

    const approve = await p.h.request('POST', `/api/v1/approvals/${approvalId}/approve`, { key: bob.key });
    expect(approve.status).toBe(409);
    expect(approve.body.code).toBe('tool_changed');
    expect(approve.body.message).toMatch(
      /self\.lamp\.flash changed since this call was asked for: its description/,
    );
    expect(approve.body.message).toContain('none was recorded');
    const call = await sealed(callId);
    expect(call.verdict).toBe('rejected');
    expect(call.verdict_reason).toContain('the tool changed while the call waited for approval');
    const { rows } = await p.h.owner.query('SELECT state, decided_by FROM approval WHERE id = $1', [
      approvalId,
    ]);
    expect(rows[0]).toEqual({ state: 'pending', decided_by: null });
    expect(sawCall(returned, LAMP)).toBe(false);
  }, 90_000);

  it('marks a tool named with a slash or in another script sensitive, then refuses it to the voice assistant and has an agent wait for a person', async () => {
    const device = await boot('02:b1:00:00:00:04', APPROVED);
    for (const name of [SLASHED, HAN]) {
      const marked = await p.h.request(
        'PUT',
        `/api/v1/devices/${device.mac}/tools/${encodeURIComponent(name)}`,
        { key: alice.key, body: { sensitive: true } },
      );
      expect(marked.status).toBe(200);
    }
    const catalog = (await p.h.request('GET', `/api/v1/devices/${device.mac}/tools`, { key: alice.key }))
      .body;
    for (const name of [SLASHED, HAN]) {
      expect(catalog.tools.find((t: Json) => t.name === name)).toMatchObject({
        gated: true,
        nameFlags: ['outside_mcp_names'],
      });
    }
    for (const tool of [SLASHED, HAN]) {
      const requested = await calls.request({ deviceId: device.mac, tool, origin: 'llm' });
      if (!requested.ok) throw new Error(requested.message);
      const call = await sealed(requested.callId);
      expect(call.verdict).toBe('rejected');
      expect(call.verdict_reason).toContain('an operator marked it sensitive');
    }
    // An agent acting for a person is not refused: its call waits for another person's approval (DESIGN §4).
    for (const tool of [SLASHED, HAN]) {
      const requested = await calls.request({
        deviceId: device.mac,
        tool,
        origin: 'agent',
        agentId: 'test-agent',
        operatorId: alice.operatorId,
      });
      if (!requested.ok) throw new Error(requested.message);
      await waitFor(
        async () =>
          (await p.h.owner.query('SELECT state FROM call WHERE id = $1', [requested.callId])).rows[0]
            .state === 'awaiting_approval',
        { what: `the agent's call of ${tool} waiting for approval` },
      );
    }
    expect(sawCall(device, SLASHED) || sawCall(device, HAN)).toBe(false);
  }, 90_000);
});
