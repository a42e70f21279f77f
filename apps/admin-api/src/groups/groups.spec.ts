import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';

describe('groups, tags and quarantine', () => {
  let h: Harness;
  let operator: Person;
  let admin: Person;
  let devices: string[];

  beforeAll(async () => {
    h = await startHarness();
    [operator, admin] = [await h.person('operator'), await h.person('admin')];
    devices = await insertDevices(h.pool, 4);
  });
  afterAll(() => h.stop());

  it('creates a group with a time zone and limits, and refuses a zone that does not exist', async () => {
    const limits = { 'self.audio_speaker.set_volume': { volume: { maximum: 70 } } };
    const r = await h.request('POST', '/api/v1/groups', {
      key: admin.key,
      body: { name: 'shanghai-office', timeZone: 'Asia/Shanghai', limits },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'shanghai-office',
      timeZone: 'Asia/Shanghai',
      limits,
      memberCount: 0,
    });
    const badZone = await h.request('POST', '/api/v1/groups', {
      key: admin.key,
      body: { name: 'x', timeZone: 'Mars/Olympus' },
    });
    expect(badZone.body.issues[0].field).toBe('body.timeZone');
    const badLimit = await h.request('POST', '/api/v1/groups', {
      key: admin.key,
      body: { name: 'y', limits: { 'self.audio_speaker.set_volume': { volume: { max: 70 } } } },
    });
    expect(badLimit.body.issues).toContainEqual({
      field: 'body.limits.self.audio_speaker.set_volume.volume.max',
      message: 'unknown field',
    });
    expect(
      (await h.request('POST', '/api/v1/groups', { key: operator.key, body: { name: 'z' } })).status,
    ).toBe(403);
    const dup = await h.request('POST', '/api/v1/groups', {
      key: admin.key,
      body: { name: 'shanghai-office' },
    });
    expect(dup.status).toBe(409);
  });

  it('adds and removes members, naming devices it does not know', async () => {
    const group = await h.request('POST', '/api/v1/groups', { key: admin.key, body: { name: 'lab' } });
    const added = await h.request('PUT', `/api/v1/groups/${group.body.id}/members`, {
      key: admin.key,
      body: { add: devices.slice(0, 3) },
    });
    expect(added.body.memberCount).toBe(3);
    const removed = await h.request('PUT', `/api/v1/groups/${group.body.id}/members`, {
      key: admin.key,
      body: { remove: [devices[0]] },
    });
    expect(removed.body.memberCount).toBe(2);
    const unknown = await h.request('PUT', `/api/v1/groups/${group.body.id}/members`, {
      key: admin.key,
      body: { add: ['ff:ff:ff:ff:ff:ff'] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toMatch(/ff:ff:ff:ff:ff:ff/);
    const detail = await h.request('GET', `/api/v1/devices/${devices[1]}`, { key: operator.key });
    expect(detail.body.groups).toEqual([{ id: group.body.id, name: 'lab', timeZone: 'UTC' }]);
  });

  it("replaces a device's tags", async () => {
    const r = await h.request('PUT', `/api/v1/devices/${devices[3]}/tags`, {
      key: operator.key,
      body: { tags: ['lobby', 'demo', 'lobby'] },
    });
    expect(r.body).toEqual({ deviceId: devices[3], tags: ['demo', 'lobby'] });
    await h.request('PUT', `/api/v1/devices/${devices[3]}/tags`, {
      key: operator.key,
      body: { tags: ['demo'] },
    });
    const { rows } = await h.pool.query('SELECT tag FROM device_tag WHERE device_id = $1', [devices[3]]);
    expect(rows).toEqual([{ tag: 'demo' }]);
  });

  it('accepts a quarantined claim by binding the MAC to the claimed identity, or rejects it leaving the bound one', async () => {
    const [kept, rebound] = devices;
    const claim = (deviceId: string, clientId: string) =>
      h.pool.query(
        `INSERT INTO device_quarantine (id, device_id, claimed_client_id, claimed_serial, body) VALUES (gen_random_uuid(), $1, $2, 'SN-2', '{}') RETURNING id`,
        [deviceId, clientId],
      );
    // Claims hold the hash of the claimed Client-Id (DESIGN §3); answers show its first 8 hex only.
    const reflashed = 'a'.repeat(64);
    const forged = 'b'.repeat(64);
    await claim(rebound!, reflashed);
    await claim(kept!, forged);
    const pending = await h.request('GET', '/api/v1/quarantine', { key: operator.key });
    expect(
      pending.body.items
        .map((q: { claimedClientIdFingerprint: string }) => q.claimedClientIdFingerprint)
        .sort(),
    ).toEqual(['aaaaaaaa', 'bbbbbbbb']);
    expect(pending.text).not.toContain(reflashed);

    expect(
      (await h.request('POST', `/api/v1/devices/${rebound}/quarantine/accept`, { key: operator.key })).status,
    ).toBe(403);
    const accepted = await h.request('POST', `/api/v1/devices/${rebound}/quarantine/accept`, {
      key: admin.key,
      body: { reason: 'flash erased' },
    });
    expect(accepted.body).toMatchObject({ state: 'accepted', decidedBy: admin.operatorId });
    const device = await h.pool.query('SELECT client_id, serial_number FROM device WHERE id = $1', [rebound]);
    expect(device.rows[0]).toEqual({ client_id: reflashed, serial_number: 'SN-2' });
    // The change of identity is an event on the device page, citing the claim and who accepted it.
    const page = await h.request('GET', `/api/v1/devices/${rebound}`, { key: operator.key });
    expect(page.body.identityChanges).toHaveLength(2);
    expect(page.body.identityChanges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: 'client_id',
          current: 'aaaaaaaa',
          source: 'operator',
          operatorId: admin.operatorId,
        }),
        expect.objectContaining({ field: 'serial', previous: null, current: 'SN-2', source: 'operator' }),
      ]),
    );
    expect(page.body.clientIdFingerprint).toBe('aaaaaaaa');

    const rejected = await h.request('POST', `/api/v1/devices/${kept}/quarantine/reject`, {
      key: operator.key,
      body: { reason: 'unknown board' },
    });
    expect(rejected.body).toMatchObject({ state: 'rejected', reason: 'unknown board' });
    const untouched = await h.pool.query('SELECT client_id FROM device WHERE id = $1', [kept]);
    expect(untouched.rows[0].client_id).not.toBe(forged);
    const nothingLeft = await h.request('POST', `/api/v1/devices/${kept}/quarantine/reject`, {
      key: operator.key,
      body: { reason: 'again' },
    });
    expect(nothingLeft.status).toBe(409);
  });
});
