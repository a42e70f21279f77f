import { createServer, type Server } from 'node:http';
import type { Fleet, SimDevice } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
import { buildEspImage } from '../../test/esp-image';
import type { Json, Person } from '../../test/harness';
import { startPlatform, type Platform } from '../../test/platform';

// Phased rollouts through the real platform (REST API, broker, orchestrator) over simulated devices: a canary that
// crashes before its first check-in stops the campaign at its gate and nobody else is upgraded; a healthy release
// goes canary → 25 % → 100 % with short soaks; a started campaign cannot be edited, and its rollback links back.
describe('a phased firmware campaign over simulated devices', () => {
  let p: Platform;
  let creator: Person;
  let approver: Person;
  let viewer: Person;
  let admin: Person;
  let fleet: Fleet;
  let webhooks: Server;
  const received: { event: string; body: string }[] = [];
  // Devices 0-2 write images that crash on their first boot: the bootloader goes back to the old slot.
  const CRASHING = 3;

  beforeAll(async () => {
    p = await startPlatform();
    await p.startOrchestrator('replica-a');
    [creator, approver, viewer, admin] = await Promise.all([
      p.h.person('operator'),
      p.h.person('operator'),
      p.h.person('viewer'),
      p.h.person('admin'),
    ]);
    webhooks = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ event: String(req.headers['x-fleet-event']), body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => webhooks.listen(0, '127.0.0.1', resolve));
    const port = (webhooks.address() as { port: number }).port;
    const hook = await p.h.request('POST', '/api/v1/webhooks', {
      key: admin.key,
      body: {
        url: `http://127.0.0.1:${port}/hook`,
        events: ['campaign.gate_failed'],
        secret: 'phased-webhook-secret-0123456789',
      },
    });
    expect(hook.status).toBe(201);
    fleet = await p.fleet({
      count: 30,
      macPrefix: '02:e2:f0',
      perDevice: (i) => (i < CRASHING ? { faults: { rollbackUpgrades: 'before-check-in' } } : {}),
    });
  }, 180_000);
  afterAll(async () => {
    webhooks?.close();
    await p?.close();
  });

  async function upload(version: string): Promise<string> {
    const res = await p.h.request('POST', '/api/v1/firmware?boards=bread-compact-wifi', {
      key: admin.key,
      raw: buildEspImage({ version, chipId: 9 }),
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function startApproved(body: Record<string, unknown>): Promise<string> {
    const created = await p.h.request('POST', '/api/v1/campaigns', { key: creator.key, body });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await p.h.request('POST', `/api/v1/campaigns/${id}/start`, { key: creator.key })).status).toBe(
      200,
    );
    expect(
      (await p.h.request('POST', `/api/v1/campaigns/${id}/approve`, { key: approver.key })).body.state,
    ).toBe('running');
    return id;
  }

  const campaign = async (id: string): Promise<Json> =>
    (await p.h.request('GET', `/api/v1/campaigns/${id}`, { key: creator.key })).body;
  const macs = (devices: SimDevice[]) => devices.map((d) => d.mac);
  const upgradesSentTo = (d: SimDevice) =>
    d.observed.received.all.filter((m) => m.text.includes('self.upgrade_firmware')).length;

  const phases = (canary: SimDevice[]) => [
    { name: 'canary', devices: macs(canary), soakS: 1 },
    { name: 'quarter', percent: 25, soakS: 1 },
    { name: 'everyone', percent: 100, soakS: 1 },
  ];

  it('stops at the canary gate when the canary crashes before its first check-in; nobody else is upgraded', async () => {
    const firmwareId = await upload('3.0.0');
    const devices = fleet.devices.slice(0, 15);
    const id = await startApproved({
      name: 'crashing 3.0.0',
      selector: { deviceIds: macs(devices) },
      action: { kind: 'firmware', firmwareId, via: 'mcp' },
      phases: phases(devices.slice(0, CRASHING)),
      rollout: { batchSize: 50, maxInFlight: 50 },
      abortRule: { failureRate: 0.5, minDevices: 100 },
      deviceTimeoutS: 30,
    });
    const paused = await waitFor(
      async () => (await campaign(id)).state === 'paused' && (await campaign(id)),
      {
        what: 'the canary gate to pause the campaign',
        timeoutMs: 120_000,
        intervalMs: 200,
      },
    );
    expect(paused.stateReason).toContain('phase "canary" failed its gate');
    expect(paused.phaseIndex).toBe(0);
    expect(paused.phaseLog).toEqual([
      expect.objectContaining({ phase: 0, name: 'canary', outcome: 'failed' }),
    ]);
    expect(paused.progress.failed).toBe(CRASHING);
    expect(paused.progress.pending).toBe(devices.length - CRASHING);
    for (const d of devices.slice(CRASHING)) {
      expect(upgradesSentTo(d)).toBe(0);
      expect(d.version).toBe('2.4.2');
    }
    // The people who approved it are told, by name, with what broke the gate.
    const hook = await waitFor(
      () => received.find((r) => r.event === 'campaign.gate_failed' && r.body.includes(id)),
      { what: 'the gate_failed webhook', timeoutMs: 30_000 },
    );
    expect(hook.body).toContain(approver.operatorId);
    expect(hook.body).toContain('effect_mismatch');

    // Going on needs a person with the operator role, and a reason.
    const byViewer = await p.h.request('POST', `/api/v1/campaigns/${id}/continue`, {
      key: viewer.key,
      body: { reason: 'looks fine to me' },
    });
    expect(byViewer.status).toBe(403);
    const noReason = await p.h.request('POST', `/api/v1/campaigns/${id}/continue`, {
      key: approver.key,
      body: {},
    });
    expect(noReason.status).toBe(400);
    // Resuming re-judges the same gate: it pauses again, and still nobody else is upgraded.
    expect((await p.h.request('POST', `/api/v1/campaigns/${id}/resume`, { key: approver.key })).status).toBe(
      200,
    );
    await waitFor(async () => (await campaign(id)).state === 'paused', {
      what: 'the gate again',
      timeoutMs: 30_000,
    });
    expect(devices.slice(CRASHING).every((d) => upgradesSentTo(d) === 0)).toBe(true);
    const cont = await p.h.request('POST', `/api/v1/campaigns/${id}/continue`, {
      key: approver.key,
      body: { reason: 'the crash is a known bootloader issue on these three' },
    });
    expect(cont.status).toBe(200);
    expect(cont.body.state).toBe('running');
    expect(cont.body.phaseIndex).toBe(1);
    expect(cont.body.phaseLog.at(-1)).toMatchObject({ outcome: 'continued', by: approver.operatorId });
    expect((await p.h.request('POST', `/api/v1/campaigns/${id}/cancel`, { key: approver.key })).status).toBe(
      200,
    );
    const audit = await p.h.owner.query(
      `SELECT count(*)::int AS n FROM audit_event WHERE action = 'campaign.continue' AND target_id = $1`,
      [id],
    );
    expect(audit.rows[0].n).toBeGreaterThanOrEqual(1);
  }, 240_000);

  let healthyId = '';
  let healthyFirmware = '';

  it('passes a healthy release through canary, 25 % and 100 %, one phase after the other', async () => {
    healthyFirmware = await upload('3.1.0');
    const devices = fleet.devices.slice(15, 30);
    const canary = devices.slice(0, 2);
    healthyId = await startApproved({
      name: 'healthy 3.1.0',
      selector: { deviceIds: macs(devices) },
      action: { kind: 'firmware', firmwareId: healthyFirmware, via: 'mcp' },
      phases: phases(canary),
      rollout: { batchSize: 50, maxInFlight: 50 },
      deviceTimeoutS: 30,
    });
    const done = await waitFor(
      async () => (await campaign(healthyId)).state === 'completed' && (await campaign(healthyId)),
      { what: 'the phased rollout to complete', timeoutMs: 180_000, intervalMs: 200 },
    );
    expect(done.progress.verified).toBe(devices.length);
    expect(done.phaseLog.map((e: Json) => `${e.name}:${e.outcome}`)).toEqual([
      'canary:passed',
      'quarter:passed',
      'everyone:passed',
    ]);
    for (const d of devices) {
      expect(d.version).toBe('3.1.0');
      expect(upgradesSentTo(d)).toBe(1);
    }
    // Each phase's devices were called only after the one before it passed its gate: the canary first, then a
    // quarter of the fleet (4 of 15, the canary's 2 among them), then the rest.
    const { rows } = await p.h.owner.query<{ phase: number; first: Date; last: Date; n: number }>(
      `SELECT t.phase, min(c.created_at) AS first, max(c.created_at) AS last, count(*)::int AS n
         FROM campaign_target t JOIN call c ON c.id = t.call_id WHERE t.campaign_id = $1 GROUP BY t.phase ORDER BY t.phase`,
      [healthyId],
    );
    expect(rows.map((r) => r.n)).toEqual([2, 2, 11]);
    expect(rows[0]!.last.getTime()).toBeLessThan(rows[1]!.first.getTime());
    expect(rows[1]!.last.getTime()).toBeLessThan(rows[2]!.first.getTime());
  }, 240_000);

  it('refuses any edit of a started campaign, and its rollback links back from the release page', async () => {
    const edit = await p.h.request('PATCH', `/api/v1/campaigns/${healthyId}`, {
      key: creator.key,
      body: { name: 'something else' },
    });
    expect(edit.status).toBe(409);
    expect(edit.body.code).toBe('campaign_sealed');
    // Not even the database's owner can change its definition behind the API's back.
    await expect(
      p.h.owner.query(`UPDATE campaign SET selector = '{"board":"x"}' WHERE id = $1`, [healthyId]),
    ).rejects.toThrow(/sealed/);
    // Its sealed definition's digest is in every call's reason, so each device's evidence chain holds it.
    const sealed = await campaign(healthyId);
    expect(sealed.definitionSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sealed.definition.selector).toEqual(sealed.selector);
    const reasons = await p.h.owner.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM call WHERE campaign_id = $1 AND reason LIKE '%' || $2 || '%'`,
      [healthyId, sealed.definitionSha256],
    );
    expect(reasons.rows[0]!.n).toBe(15);

    // A draft, by contrast, may be edited.
    const draft = await p.h.request('POST', '/api/v1/campaigns', {
      key: creator.key,
      body: {
        name: 'a draft',
        selector: { deviceIds: [fleet.devices[29]!.mac] },
        action: { kind: 'firmware', firmwareId: healthyFirmware },
      },
    });
    const edited = await p.h.request('PATCH', `/api/v1/campaigns/${draft.body.id}`, {
      key: creator.key,
      body: { name: 'a better draft', phases: [{ name: 'all', percent: 100, soakS: 0 }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'a better draft', phases: [{ name: 'all', percent: 100 }] });
    expect(
      (
        await p.h.request('PATCH', `/api/v1/campaigns/${draft.body.id}`, {
          key: viewer.key,
          body: { retries: 1 },
        })
      ).status,
    ).toBe(403);

    // Continuing needs a failed gate to continue past; a rollback needs a started upgrade to undo.
    const notHeld = await p.h.request('POST', `/api/v1/campaigns/${healthyId}/continue`, {
      key: approver.key,
      body: { reason: 'nothing holds it' },
    });
    expect([notHeld.status, notHeld.body.code]).toEqual([409, 'no_failed_gate']);
    const draftRollback = await p.h.request('POST', `/api/v1/campaigns/${draft.body.id}/rollback`, {
      key: creator.key,
      body: {},
    });
    expect([draftRollback.status, draftRollback.body.code]).toEqual([409, 'not_a_started_upgrade']);

    // The rollback, in one step: back to the version the devices ran before, waiting for another person.
    const previous = await upload('2.4.2');
    const rollback = await p.h.request('POST', `/api/v1/campaigns/${healthyId}/rollback`, {
      key: creator.key,
      body: { reason: 'support calls after 3.1.0' },
    });
    expect(rollback.status).toBe(201);
    expect(rollback.body).toMatchObject({
      rollbackOf: healthyId,
      state: 'awaiting_approval',
      action: { kind: 'firmware', firmwareId: previous },
    });
    expect(rollback.body.selector.deviceIds).toHaveLength(15);
    const page = await p.h.request('GET', `/api/v1/firmware/${healthyFirmware}/campaigns`, {
      key: viewer.key,
    });
    expect(page.status).toBe(200);
    expect(page.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: healthyId, rolledBackBy: rollback.body.id })]),
    );
    const back = await p.h.request('GET', `/api/v1/firmware/${previous}/campaigns`, { key: viewer.key });
    expect(back.body.items).toEqual([
      expect.objectContaining({ id: rollback.body.id, rollbackOf: healthyId }),
    ]);
    expect(
      (await p.h.request('POST', `/api/v1/campaigns/${healthyId}/rollback`, { key: viewer.key, body: {} }))
        .status,
    ).toBe(403);
  }, 120_000);
});
