import { waitFor } from '@fleet/testing';
import { insertDevices, startHarness, type Harness, type Json, type Person } from '../../test/harness';

// Announcement schedules for keys bounded to device groups (their devices only; 404 for any other, as for an
// unknown one), and runs that check their creator is still allowed: a schedule whose creator was disabled, whose
// key was revoked, or whose device left the key's groups is paused saying why, and makes no call.
describe('announcement schedules and who may keep them running', () => {
  let h: Harness;
  let admin: Person;
  let operator: Person;
  let inside: string;
  let outside: string;
  let groupId: string;

  beforeAll(async () => {
    h = await startHarness({ ANNOUNCE_SCHEDULE_TICK_MS: '200' });
    [admin, operator] = await Promise.all([h.person('admin'), h.person('operator')]);
    [inside, outside] = (await insertDevices(h.pool, 2, { start: 0x900 })) as [string, string];
    const group = await post('/groups', { name: 'ward', timeZone: 'UTC' }, admin.key);
    groupId = group.body.id as string;
    await h.request('PUT', `/api/v1/groups/${groupId}/members`, {
      key: admin.key,
      body: { add: [inside], remove: [] },
    });
  });
  afterAll(() => h?.stop());

  const post = (url: string, body: unknown, key: string) => h.request('POST', `/api/v1${url}`, { key, body });
  const get = (url: string, key: string) => h.request('GET', `/api/v1${url}`, { key });

  /** An operator's key bounded to the ward group. */
  const boundedKey = async (): Promise<string> => {
    const person = await h.person('operator');
    const key = await post(
      '/api-keys',
      { operatorId: person.operatorId, name: 'ward agent', role: 'operator', groups: [groupId] },
      admin.key,
    );
    expect(key.status).toBe(201);
    return key.body.key as string;
  };

  const later = { text: 'Rounds at nine', how: 'alert', at: new Date(Date.now() + 86_400_000).toISOString() };
  const everySecond = { text: 'Drink water', how: 'alert', cron: '* * * * * *' };

  const callsOf = async (scheduleId: string) =>
    (
      await h.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM call WHERE reason LIKE 'announcement schedule ' || $1 || ',%'`,
        [scheduleId],
      )
    ).rows[0]!.n;

  const pausedWith = (key: string, id: string, reason: RegExp) =>
    waitFor(
      async () => {
        const s = (await get(`/announcement-schedules/${id}`, key)).body;
        return s.state === 'paused' && reason.test(String(s.lastError)) ? s : undefined;
      },
      { what: `schedule ${id} paused` },
    );

  it('lets a key bounded to groups schedule, list, read, pause, resume and cancel for devices of its groups only', async () => {
    const bounded = await boundedKey();
    const own = await post(`/devices/${inside}/announcement-schedules`, later, bounded);
    expect(own.status).toBe(201);
    const refused = await post(`/devices/${outside}/announcement-schedules`, later, bounded);
    expect(refused.status).toBe(404);
    const theirs = await post(`/devices/${outside}/announcement-schedules`, later, operator.key);
    expect(theirs.status).toBe(201);

    const listed = (await get('/announcement-schedules', bounded)).body.items.map((s: Json) => s.id);
    expect(listed).toContain(own.body.id);
    expect(listed).not.toContain(theirs.body.id);
    expect((await get(`/announcement-schedules/${own.body.id}`, bounded)).status).toBe(200);
    expect((await get(`/announcement-schedules/${theirs.body.id}`, bounded)).body).toMatchObject({
      statusCode: 404,
      message: `no announcement schedule ${theirs.body.id}`,
    });
    for (const move of ['pause', 'cancel'])
      expect((await post(`/announcement-schedules/${theirs.body.id}/${move}`, {}, bounded)).status).toBe(404);
    expect((await get(`/announcement-schedules/${theirs.body.id}`, operator.key)).body.state).toBe('active');

    for (const [move, state] of [
      ['pause', 'paused'],
      ['resume', 'active'],
      ['cancel', 'cancelled'],
    ] as const) {
      const moved = await post(`/announcement-schedules/${own.body.id}/${move}`, {}, bounded);
      expect(moved.status).toBe(200);
      expect(moved.body.state).toBe(state);
    }
  });

  it('pauses a schedule at its next run once the key it was made with is revoked, and makes no more calls', async () => {
    const person = await h.person('operator');
    const created = await post(`/devices/${inside}/announcement-schedules`, everySecond, person.key);
    const id = created.body.id as string;
    await waitFor(async () => (await callsOf(id)) >= 1, { what: 'a first run' });
    const keyId = (
      await h.pool.query<{ id: string }>('SELECT id FROM api_key WHERE operator_id = $1', [person.operatorId])
    ).rows[0]!.id;
    expect((await h.request('DELETE', `/api/v1/api-keys/${keyId}`, { key: admin.key })).status).toBe(200);

    const paused = await pausedWith(admin.key, id, /API key the schedule was made with is revoked/);
    const made = await callsOf(id);
    expect(paused.lastError).toMatch(/^paused: /);
    // Paused, the runner takes it no more: its next due time passes without a call.
    const nextAt = new Date(paused.nextRunAt as string).getTime();
    await waitFor(() => nextAt + 1000 < Date.now(), { what: 'its next time and a round past it' });
    expect(await callsOf(id)).toBe(made);
    expect((await get(`/announcement-schedules/${id}`, admin.key)).body.state).toBe('paused');
  });

  it('pauses a schedule whose creator was disabled', async () => {
    const person = await h.person('operator');
    const created = await post(`/devices/${outside}/announcement-schedules`, everySecond, person.key);
    const id = created.body.id as string;
    await waitFor(async () => (await callsOf(id)) >= 1, { what: 'a first run' });
    const disabled = await h.request('PATCH', `/api/v1/operators/${person.operatorId}`, {
      key: admin.key,
      body: { disabled: true },
    });
    expect(disabled.status).toBe(200);
    await pausedWith(admin.key, id, new RegExp(`${person.email} is disabled`));
  });

  it('pauses the schedule of a bounded key once its device left the key groups', async () => {
    const bounded = await boundedKey();
    const created = await post(`/devices/${inside}/announcement-schedules`, everySecond, bounded);
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await waitFor(async () => (await callsOf(id)) >= 1, { what: 'a first run' });
    await h.request('PUT', `/api/v1/groups/${groupId}/members`, {
      key: admin.key,
      body: { add: [], remove: [inside] },
    });
    await pausedWith(admin.key, id, /device is no longer in the groups of the API key/);
  });
});
