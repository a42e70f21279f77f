import { insertCatalog } from '../../test/fixtures';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';

describe("a device's tools", () => {
  let h: Harness;
  let viewer: Person;
  let operator: Person;
  let admin: Person;
  let device: string;
  let catalogId: string;

  beforeAll(async () => {
    h = await startHarness();
    [viewer, operator, admin] = [
      await h.person('viewer'),
      await h.person('operator'),
      await h.person('admin'),
    ];
    device = (await insertDevices(h.pool, 1))[0]!;
    await insertCatalog(h.pool, device!, [
      { name: 'self.get_device_status' },
      {
        name: 'self.audio_speaker.set_volume',
        inputSchema: { type: 'object', properties: { volume: { type: 'integer' } } },
      },
      { name: 'self.screen.set_theme' },
    ]);
    ({ catalogId } = await insertCatalog(
      h.pool,
      device!,
      [
        { name: 'self.get_device_status' },
        {
          name: 'self.audio_speaker.set_volume',
          inputSchema: { type: 'object', properties: { volume: { type: 'integer', minimum: 0 } } },
        },
        { name: 'self.reboot', userOnly: true },
      ],
      2,
    ));
    await h.pool.query(
      `INSERT INTO ordering_rule (id, source, catalog_id, tool, requires, max_age_ms, action, evidence) VALUES
         (gen_random_uuid(), 'derived', $1, 'self.audio_speaker.set_volume', 'self.get_device_status', 60000, 'run_first', 'must call self.get_device_status first'),
         (gen_random_uuid(), 'config', NULL, 'self.camera.take_photo', 'self.get_device_status', 1000, 'refuse', NULL)`,
      [catalogId],
    );
  });
  afterAll(() => h.stop());

  it('lists the current catalog with user-only tools marked, the platform reboot, and the ordering rules in force', async () => {
    const r = await h.request('GET', `/api/v1/devices/${device}/tools`, { key: viewer.key });
    expect(r.status).toBe(200);
    expect(r.body.catalog).toMatchObject({ version: 2, toolCount: 3 });
    expect(
      r.body.tools.map((t: { name: string; userOnly: boolean; gated: boolean }) => [
        t.name,
        t.userOnly,
        t.gated,
      ]),
    ).toEqual([
      ['self.get_device_status', false, false],
      ['self.audio_speaker.set_volume', false, false],
      ['self.reboot', true, true],
    ]);
    expect(r.body.platformTools).toEqual([
      expect.objectContaining({ name: 'system.reboot', userOnly: true, gated: true }),
    ]);
    // The camera rule governs a tool this device does not have.
    expect(r.body.orderingRules).toEqual([
      expect.objectContaining({
        tool: 'self.audio_speaker.set_volume',
        requires: 'self.get_device_status',
        source: 'derived',
        action: 'run_first',
      }),
    ]);
  });

  it('lets an operator mark a tool sensitive, and only an admin lift the marking', async () => {
    const url = `/api/v1/devices/${device}/tools/self.audio_speaker.set_volume`;
    const marked = await h.request('PUT', url, { key: operator.key, body: { sensitive: true } });
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({
      toolName: 'self.audio_speaker.set_volume',
      sensitive: true,
      markedBy: operator.operatorId,
    });
    const tools = await h.request('GET', `/api/v1/devices/${device}/tools`, { key: viewer.key });
    expect(tools.body.tools[1]).toMatchObject({ userOnly: false, sensitive: true, gated: true });

    // A marked tool is gated for operators' calls too: it waits for approval.
    const call = await h.request('POST', `/api/v1/devices/${device}/calls`, {
      key: operator.key,
      body: { tool: 'self.audio_speaker.set_volume', arguments: { volume: 30 } },
    });
    expect(call.body.state).toBe('awaiting_approval');

    expect((await h.request('PUT', url, { key: operator.key, body: { sensitive: false } })).status).toBe(403);
    expect((await h.request('PUT', url, { key: admin.key, body: { sensitive: false } })).body.sensitive).toBe(
      false,
    );
    expect((await h.request('PUT', url, { key: viewer.key, body: { sensitive: true } })).status).toBe(403);
    const bad = await h.request('PUT', url, { key: operator.key, body: { sensitive: 'yes' } });
    expect(bad.body.issues[0].field).toBe('body.sensitive');
  });

  it('lets an operator mark a tool read-only and clear it, audited and shown in the catalog; a viewer may not', async () => {
    const url = `/api/v1/devices/${device}/tools/self.get_device_status`;
    const marked = await h.request('PUT', url, { key: operator.key, body: { readOnly: true } });
    expect(marked.status).toBe(200);
    // Marking it read-only says nothing about sensitivity: that stays unmarked.
    expect(marked.body).toMatchObject({
      toolName: 'self.get_device_status',
      readOnly: true,
      sensitive: null,
      markedBy: operator.operatorId,
    });
    const tools = await h.request('GET', `/api/v1/devices/${device}/tools`, { key: viewer.key });
    expect(tools.body.tools[0]).toMatchObject({
      name: 'self.get_device_status',
      readOnly: true,
      sensitive: false,
      gated: false,
    });
    const { rows } = await h.pool.query(
      `SELECT operator_id, target_type, details FROM audit_event WHERE action = 'tool.mark' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]).toMatchObject({
      operator_id: operator.operatorId,
      target_type: 'tool',
      details: { body: { readOnly: true } },
    });

    // A later sensitive marking keeps the read-only one, and null clears it.
    await h.request('PUT', url, { key: operator.key, body: { sensitive: true } });
    const cleared = await h.request('PUT', url, { key: operator.key, body: { readOnly: null } });
    expect(cleared.body).toMatchObject({ readOnly: null, sensitive: true });
    const after = await h.request('GET', `/api/v1/devices/${device}/tools`, { key: viewer.key });
    expect(after.body.tools[0]).toMatchObject({ readOnly: null, sensitive: true });

    expect((await h.request('PUT', url, { key: viewer.key, body: { readOnly: true } })).status).toBe(403);
    const unchanged = await h.request('GET', `/api/v1/devices/${device}/tools`, { key: viewer.key });
    expect(unchanged.body.tools[0].readOnly).toBeNull();
    const bad = await h.request('PUT', url, { key: operator.key, body: { readOnly: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].field).toBe('body.readOnly');
    expect((await h.request('PUT', url, { key: operator.key, body: {} })).status).toBe(400);
  });

  it('lists catalog versions and says what changed between two', async () => {
    const versions = await h.request('GET', `/api/v1/devices/${device}/catalogs`, { key: viewer.key });
    expect(versions.body.map((v: { version: number; current: boolean }) => [v.version, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    const diff = await h.request('GET', `/api/v1/devices/${device}/catalogs/diff`, { key: viewer.key });
    expect(diff.body).toEqual({
      from: 1,
      to: 2,
      added: ['self.reboot'],
      removed: ['self.screen.set_theme'],
      changed: [{ name: 'self.audio_speaker.set_volume', fields: ['inputSchema'] }],
    });
    const missing = await h.request('GET', `/api/v1/devices/${device}/catalogs/diff?from=7&to=2`, {
      key: viewer.key,
    });
    expect(missing.status).toBe(404);
  });

  it('marks a tool by the name the catalog holds, whatever its characters: a slash, another script, a bidi control', async () => {
    const odd = (await insertDevices(h.pool, 1, { start: 500 }))[0]!;
    const names = ['self.sec/reboot', 'self.灯.开', 'self.sec.\u202egnp.exe'];
    await insertCatalog(h.pool, odd, [
      { name: 'self.get_device_status' },
      ...names.map((name) => ({ name })),
    ]);
    for (const name of names) {
      const url = `/api/v1/devices/${odd}/tools/${encodeURIComponent(name)}`;
      const marked = await h.request('PUT', url, { key: operator.key, body: { sensitive: true } });
      expect(marked.status).toBe(200);
      expect(marked.body).toMatchObject({ toolName: name, sensitive: true });
    }
    const tools = await h.request('GET', `/api/v1/devices/${odd}/tools`, { key: viewer.key });
    expect(
      tools.body.tools.map((t: { name: string; gated: boolean; nameFlags: string[] }) => [
        t.name,
        t.gated,
        t.nameFlags,
      ]),
    ).toEqual([
      ['self.get_device_status', false, []],
      ['self.sec/reboot', true, ['outside_mcp_names']],
      ['self.灯.开', true, ['outside_mcp_names']],
      ['self.sec.\u202egnp.exe', true, ['outside_mcp_names', 'bidi_control']],
    ]);
    expect(tools.body.otherMarkings).toEqual([]); // each marking found its tool
    // Only what no catalog can hold is refused, naming the field.
    const nul = await h.request('PUT', `/api/v1/devices/${odd}/tools/self.%00reboot`, {
      key: operator.key,
      body: { sensitive: true },
    });
    expect(nul.status).toBe(400);
    expect(nul.body.issues[0].field).toBe('params.name');
  });

  it('says which tools are gated by default and why, even once an admin lifted it', async () => {
    const prose = (await insertDevices(h.pool, 1, { start: 600 }))[0]!;
    await insertCatalog(h.pool, prose, [
      {
        name: 'self.system.reconfigure_wifi',
        description: 'Enter WiFi setup. You must ask the user  to\nconfirm.',
      },
    ]);
    const before = await h.request('GET', `/api/v1/devices/${prose}/tools`, { key: viewer.key });
    expect(before.body.tools[0]).toMatchObject({
      gated: true,
      gatedByDefault: 'its description asks for the user\'s confirmation ("ask the user to confirm")',
    });
    await h.request('PUT', `/api/v1/devices/${prose}/tools/self.system.reconfigure_wifi`, {
      key: admin.key,
      body: { sensitive: false },
    });
    const lifted = await h.request('GET', `/api/v1/devices/${prose}/tools`, { key: viewer.key });
    expect(lifted.body.tools[0]).toMatchObject({
      gated: false,
      gatedByDefault: expect.stringContaining('confirm'),
    });
    expect(lifted.body.tools[0].gatedBecause).toContain('an operator lifted the default');
  });
});
