import { buildEspImage } from '../../test/esp-image';
import { insertSharedCatalog } from '../../test/fixtures';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';

describe('campaigns', () => {
  let h: Harness;
  let alice: Person;
  let bob: Person;
  let viewer: Person;
  let breadboards: string[];
  let minis: string[];

  beforeAll(async () => {
    h = await startHarness();
    alice = await h.person('operator');
    bob = await h.person('operator');
    viewer = await h.person('viewer');
    breadboards = await insertDevices(h.pool, 30, {
      board: 'bread-compact-wifi',
      firmware: '1.6.0',
      online: true,
    });
    minis = await insertDevices(h.pool, 10, { start: 100, board: 'esp32c3-mini', firmware: '1.5.0' });
    await insertSharedCatalog(
      h.pool,
      [...breadboards, ...minis],
      [{ name: 'self.get_device_status' }, { name: 'self.audio_speaker.set_volume' }],
    );
    await h.pool.query(
      `INSERT INTO device_tag (device_id, tag) SELECT id, 'lobby' FROM device WHERE id = ANY ($1)`,
      [breadboards.slice(0, 5)],
    );
  });
  afterAll(() => h.stop());

  const create = (body: Record<string, unknown>, key = alice.key) =>
    h.request('POST', '/api/v1/campaigns', { key, body });
  const step = (id: string, verb: string, key = bob.key, body?: unknown) =>
    h.request('POST', `/api/v1/campaigns/${id}/${verb}`, { key, ...(body ? { body } : {}) });
  const targets = async (id: string) =>
    (
      await h.pool.query('SELECT device_id FROM campaign_target WHERE campaign_id = $1 ORDER BY device_id', [
        id,
      ])
    ).rows.map((r) => r.device_id as string);

  it('previews how many devices a selector matches, without writing anything', async () => {
    const r = await h.request('POST', '/api/v1/campaigns/preview', {
      key: viewer.key,
      body: { selector: { board: 'bread-compact-wifi' }, action: { kind: 'reboot' } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      matched: 30,
      online: 30,
      byBoard: [{ board: 'bread-compact-wifi', devices: 30 }],
      byFirmware: [{ firmware: '1.6.0', devices: 30 }],
      needsApproval: true,
    });
    expect(r.body.sample).toEqual(breadboards.slice(0, 20));
    const byTag = await h.request('POST', '/api/v1/campaigns/preview', {
      key: viewer.key,
      body: { selector: { tags: ['lobby'] } },
    });
    expect(byTag.body.matched).toBe(5);
    const empty = await h.request('POST', '/api/v1/campaigns/preview', {
      key: viewer.key,
      body: { selector: {} },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.issues[0].field).toBe('body.selector');
  });

  it('validates a campaign spec, naming the field', async () => {
    const typo = await create({
      name: 'x',
      selector: { board: 'b' },
      action: { kind: 'reboot' },
      rollout: { batchSize: 5, maxInflight: 2 },
    });
    expect(typo.status).toBe(400);
    expect(typo.body.issues).toContainEqual({ field: 'body.rollout.maxInflight', message: 'unknown field' });
    const unknownFirmware = await create({
      name: 'x',
      selector: { board: 'b' },
      action: { kind: 'firmware', firmwareId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknownFirmware.status).toBe(422);
    expect(unknownFirmware.body.issues[0].field).toBe('body.action.firmwareId');
  });

  it('starts a campaign whose action needs no approval at once, freezing its targets', async () => {
    const c = await create({
      name: 'read status',
      selector: { board: 'esp32c3-mini' },
      action: { kind: 'tool', tool: 'self.get_device_status' },
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ state: 'draft', progress: { total: 0 }, createdBy: alice.operatorId });
    const started = await step(c.body.id, 'start', alice.key);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      state: 'running',
      approvalId: null,
      progress: { total: 10, pending: 10 },
    });
    expect(await targets(c.body.id)).toEqual(minis);
  });

  it('waits for approval of a tool whose description asks for confirmation, though no device declares it user-only', async () => {
    const labs = await insertDevices(h.pool, 2, { start: 700, board: 'esp-hi' });
    await insertSharedCatalog(h.pool, labs, [
      {
        name: 'self.system.reconfigure_wifi',
        description:
          'Enter WiFi configuration mode. **CAUTION** You must ask the user to confirm this action.',
      },
    ]);
    const c = await create({
      name: 'wifi setup',
      selector: { deviceIds: labs },
      action: { kind: 'tool', tool: 'self.system.reconfigure_wifi', arguments: {} },
    });
    const started = await step(c.body.id, 'start', alice.key);
    expect(started.body).toMatchObject({ state: 'awaiting_approval', approvalId: expect.any(String) });
  });

  it("waits for approval of a tool its model's profile makes sensitive, as each device's call would need it", async () => {
    const lamps = await insertDevices(h.pool, 2, { start: 720, board: 'lamp-board' });
    await insertSharedCatalog(h.pool, lamps, [{ name: 'self.light.turn_on' }]);
    const selector = { deviceIds: lamps };
    const action = { kind: 'tool', tool: 'self.light.turn_on', arguments: {} };
    const open = await h.request('POST', '/api/v1/campaigns/preview', {
      key: alice.key,
      body: { selector, action },
    });
    expect(open.body).toMatchObject({ needsApproval: false });
    const profile = await h.request('PUT', '/api/v1/tool-profiles', {
      key: alice.key,
      body: { model: 'lamp-board', tool: 'self.light.turn_on', kind: 'sensitive' },
    });
    expect(profile.status).toBe(200);
    const c = await create({ name: 'lights on', selector, action });
    const started = await step(c.body.id, 'start', alice.key);
    expect(started.body).toMatchObject({ state: 'awaiting_approval', approvalId: expect.any(String) });
  });

  it('waits for another person to approve a user-only action, and freezes the targets at approval', async () => {
    const c = await create({
      name: 'reboot the lobby',
      selector: { tags: ['lobby'] },
      action: { kind: 'reboot' },
    });
    const started = await step(c.body.id, 'start', alice.key);
    expect(started.body).toMatchObject({
      state: 'awaiting_approval',
      approvalId: expect.any(String),
      progress: { total: 0 },
    });

    const byCreator = await step(c.body.id, 'approve', alice.key);
    expect(byCreator.status).toBe(403);
    expect(byCreator.body.code).toBe('four_eyes');
    const bySecondKey = await step(c.body.id, 'approve', await h.addKey(alice.operatorId, 'operator'));
    expect(bySecondKey.status).toBe(403);

    const lateArrival = await insertDevices(h.pool, 1, { start: 900, board: 'other-board' });
    await h.pool.query(`INSERT INTO device_tag (device_id, tag) VALUES ($1, 'lobby')`, [lateArrival[0]]);
    const approved = await step(c.body.id, 'approve', bob.key, { reason: 'maintenance window agreed' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ state: 'running', progress: { total: 6, pending: 6 } });
    expect(approved.body.startedAt).toEqual(expect.any(String));

    const laterStill = await insertDevices(h.pool, 1, { start: 901, board: 'other-board' });
    await h.pool.query(`INSERT INTO device_tag (device_id, tag) VALUES ($1, 'lobby')`, [laterStill[0]]);
    expect(await targets(c.body.id)).toEqual([...breadboards.slice(0, 5), lateArrival[0]]);
    const approval = await h.pool.query(
      'SELECT state, decided_by, requested_by, tool FROM approval WHERE campaign_id = $1',
      [c.body.id],
    );
    expect(approval.rows[0]).toEqual({
      state: 'approved',
      decided_by: bob.operatorId,
      requested_by: alice.operatorId,
      tool: 'system.reboot',
    });
  });

  it('is approved through the approvals list as well', async () => {
    const c = await create({
      name: 'volume',
      selector: { deviceIds: [breadboards[7]] },
      action: { kind: 'reboot' },
    });
    const started = await step(c.body.id, 'start', alice.key);
    const pending = await h.request('GET', '/api/v1/approvals', { key: bob.key });
    expect(pending.body.items.map((a: { id: string }) => a.id)).toContain(started.body.approvalId);
    const r = await h.request('POST', `/api/v1/approvals/${started.body.approvalId}/approve`, {
      key: bob.key,
    });
    expect(r.body).toMatchObject({ state: 'approved', campaignId: c.body.id });
    expect((await h.request('GET', `/api/v1/campaigns/${c.body.id}`, { key: viewer.key })).body.state).toBe(
      'running',
    );
    const running = await h.request('GET', '/api/v1/campaigns?state=running', { key: viewer.key });
    expect(running.body.items.map((k: { id: string }) => k.id)).toContain(c.body.id);
    expect(running.body.items.every((k: { state: string }) => k.state === 'running')).toBe(true);
  });

  it('pauses, resumes and cancels by the state machine, refusing steps that do not apply', async () => {
    const c = await create({
      name: 'status again',
      selector: { board: 'bread-compact-wifi' },
      action: { kind: 'tool', tool: 'self.get_device_status' },
    });
    const resumeDraft = await step(c.body.id, 'resume');
    expect(resumeDraft.status).toBe(409);
    expect(resumeDraft.body.message).toMatch(/the campaign is draft; resume needs paused/);
    await step(c.body.id, 'start');
    expect((await step(c.body.id, 'pause', bob.key, { reason: 'night shift' })).body).toMatchObject({
      state: 'paused',
      stateReason: 'night shift',
    });
    expect((await step(c.body.id, 'pause')).status).toBe(409);
    expect((await step(c.body.id, 'resume')).body.state).toBe('running');
    await h.pool.query(
      `UPDATE campaign_target SET state = 'verified' WHERE campaign_id = $1 AND device_id = ANY ($2)`,
      [c.body.id, breadboards.slice(0, 3)],
    );
    const cancelled = await step(c.body.id, 'cancel', bob.key, { reason: 'enough' });
    expect(cancelled.body).toMatchObject({
      state: 'cancelled',
      progress: { total: 30, verified: 3, cancelled: 27, pending: 0 },
    });
    expect(cancelled.body.finishedAt).toEqual(expect.any(String));
    expect((await step(c.body.id, 'start')).status).toBe(409);
  });

  it('cancels a campaign whose approval is refused, saying who refused it and why', async () => {
    const c = await create({
      name: 'reboot all',
      selector: { board: 'bread-compact-wifi' },
      action: { kind: 'reboot' },
    });
    const started = await step(c.body.id, 'start', alice.key);
    const r = await h.request('POST', `/api/v1/approvals/${started.body.approvalId}/reject`, {
      key: bob.key,
      body: { reason: 'not during opening hours' },
    });
    expect(r.status).toBe(200);
    const after = await h.request('GET', `/api/v1/campaigns/${c.body.id}`, { key: viewer.key });
    expect(after.body).toMatchObject({
      state: 'cancelled',
      stateReason: expect.stringMatching(/refused by .*: not during opening hours/),
    });
  });

  it('skips devices a firmware does not suit or that already run it', async () => {
    const upload = await h.request('POST', '/api/v1/firmware?boards=bread-compact-wifi', {
      key: (await h.person('admin')).key,
      raw: buildEspImage({ version: '1.6.0' }),
    });
    const selector = { deviceIds: [breadboards[10], breadboards[11], minis[0]] };
    const preview = await h.request('POST', '/api/v1/campaigns/preview', {
      key: alice.key,
      body: { selector, action: { kind: 'firmware', firmwareId: upload.body.id } },
    });
    expect(preview.body).toMatchObject({ matched: 3, willSkip: 3, needsApproval: true });
    const c = await create({
      name: 'upgrade',
      selector,
      action: { kind: 'firmware', firmwareId: upload.body.id, via: 'ota' },
    });
    await step(c.body.id, 'start', alice.key);
    const approved = await step(c.body.id, 'approve', bob.key);
    expect(approved.body.progress).toMatchObject({ total: 3, skipped: 3 });
    const detail = await h.pool.query(
      'SELECT detail FROM campaign_target WHERE campaign_id = $1 ORDER BY device_id',
      [c.body.id],
    );
    expect(detail.rows.map((r) => r.detail)).toEqual([
      'already runs 1.6.0',
      'already runs 1.6.0',
      expect.stringMatching(/esp32c3-mini is not among/),
    ]);
  });

  it('creates one campaign however often a request with the same Idempotency-Key is retried', async () => {
    const body = { name: 'once', selector: { board: 'esp32c3-mini' }, action: { kind: 'reboot' } };
    const headers = { 'idempotency-key': 'campaign-once' };
    const first = await h.request('POST', '/api/v1/campaigns', { key: alice.key, body, headers });
    const again = await h.request('POST', '/api/v1/campaigns', { key: alice.key, body, headers });
    expect(again.body.id).toBe(first.body.id);
    const n = await h.pool.query(`SELECT count(*)::int AS n FROM campaign WHERE name = 'once'`);
    expect(n.rows[0].n).toBe(1);
  });

  it('lists targets with their state, a page at a time', async () => {
    const c = await create({
      name: 'list',
      selector: { board: 'bread-compact-wifi' },
      action: { kind: 'tool', tool: 'self.get_device_status' },
    });
    await step(c.body.id, 'start');
    const page = await h.request('GET', `/api/v1/campaigns/${c.body.id}/targets?limit=20`, {
      key: viewer.key,
    });
    const rest = await h.request(
      'GET',
      `/api/v1/campaigns/${c.body.id}/targets?limit=20&cursor=${page.body.nextCursor}`,
      { key: viewer.key },
    );
    expect([...page.body.items, ...rest.body.items].map((t: { deviceId: string }) => t.deviceId)).toEqual(
      breadboards,
    );
    expect(rest.body.nextCursor).toBeNull();
  });
});
