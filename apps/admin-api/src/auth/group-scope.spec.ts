import { PlatformEventBus } from '@fleet/platform-client';
import { createRedis, type Redis } from '@fleet/queues';
import { waitFor } from '@fleet/testing';
import { openStream } from '../../test/event-stream';
import { insertCall } from '../../test/fixtures';
import { insertDevices, startHarness, type Harness, type Json, type Person } from '../../test/harness';
import { SCOPED_ROUTES, scopeRuleOf } from './group-scope-routes';

// An API key bounded to device groups (an agent's reach): it lists, reads and calls only their devices, on every
// route; a device, call or campaign outside them answers 404 exactly as one that does not exist (its existence is
// not revealed); a route that spans the fleet is 403. Unscoped keys and sessions are as before.
describe('an API key bounded to device groups', () => {
  let h: Harness;
  let admin: Person;
  let operator: Person;
  let devices: string[];
  let inside: string[];
  let outside: string;
  let groups: { lobby: string; lab: string; other: string };
  let bounded: string;
  let boundedId: string;
  const absent = 'a0:ff:ff:ff:ff:fe';

  const get = (url: string, key = bounded) => h.request('GET', `/api/v1${url}`, { key });
  const post = (url: string, body: unknown, key = bounded) =>
    h.request('POST', `/api/v1${url}`, { key, body });

  beforeAll(async () => {
    h = await startHarness();
    [admin, operator] = await Promise.all([h.person('admin'), h.person('operator')]);
    devices = await insertDevices(h.pool, 5, { start: 0x700 });
    inside = devices.slice(0, 3);
    outside = devices[4]!;
    const group = async (name: string, members: string[]) => {
      const created = await post('/groups', { name, timeZone: 'UTC' }, admin.key);
      await h.request('PUT', `/api/v1/groups/${created.body.id}/members`, {
        key: admin.key,
        body: { add: members, remove: [] },
      });
      return created.body.id as string;
    };
    groups = {
      lobby: await group('lobby', inside.slice(0, 2)),
      lab: await group('lab', inside.slice(1, 3)), // one device in both: listed once
      other: await group('other', [devices[3]!, outside]),
    };
    const key = await post(
      '/api-keys',
      {
        operatorId: operator.operatorId,
        name: 'agent',
        role: 'operator',
        groups: [groups.lobby, groups.lab],
      },
      admin.key,
    );
    expect(key.status).toBe(201);
    bounded = key.body.key;
    boundedId = key.body.id;
  });
  afterAll(() => h?.stop());

  it('is created with its groups, lists them, and refuses an unknown group naming body.groups', async () => {
    const listed = (await get(`/api-keys?operatorId=${operator.operatorId}`, admin.key)).body as Json[];
    expect(listed.find((k) => k.id === boundedId)!.groups).toEqual([
      { id: groups.lab, name: 'lab' },
      { id: groups.lobby, name: 'lobby' },
    ]);
    expect(listed.find((k) => k.id !== boundedId)!.groups).toBeNull(); // the person's own key: the whole fleet
    const unknown = await post(
      '/api-keys',
      {
        operatorId: operator.operatorId,
        name: 'x',
        role: 'viewer',
        groups: ['00000000-0000-4000-8000-000000000000'],
      },
      admin.key,
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.issues).toEqual([
      { field: 'body.groups', message: expect.stringMatching(/no device group/) },
    ]);
  });

  it('lists only the devices of its groups, whatever the filter', async () => {
    expect((await get('/devices')).body.items.map((d: Json) => d.id)).toEqual(inside);
    expect((await get('/devices?group=other')).body.items).toEqual([]);
    expect((await get(`/devices?q=${outside.slice(0, 11)}`)).body.items.map((d: Json) => d.id)).toEqual(
      inside.filter((id) => id.startsWith(outside.slice(0, 11))),
    );
    expect((await get('/devices', operator.key)).body.items).toHaveLength(5); // unscoped: as before
  });

  it('reads a device outside its groups exactly as a device that does not exist: 404, same code, same words', async () => {
    expect((await get(`/devices/${inside[0]}`)).status).toBe(200);
    for (const path of ['', '/tools', '/presence', '/catalogs']) {
      const hidden = await get(`/devices/${outside}${path}`);
      const missing = await get(`/devices/${absent}${path}`, operator.key);
      expect(hidden.status).toBe(404);
      expect({ ...hidden.body, message: hidden.body.message.replace(outside, 'X') }).toEqual({
        ...missing.body,
        message: missing.body.message.replace(absent, 'X'),
      });
    }
  });

  it('cannot call a device outside its groups (404, no call written) and can call its own', async () => {
    const body = { tool: 'self.get_device_status', arguments: {} };
    const refused = await post(`/devices/${outside}/calls`, body);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: 'not_found', message: `no device ${outside}` });
    const { rows } = await h.pool.query('SELECT count(*)::int AS n FROM call WHERE device_id = $1', [
      outside,
    ]);
    expect(rows[0].n).toBe(0);
    const audited = await h.pool.query(
      `SELECT details->>'scope' AS scope FROM audit_event WHERE action = 'access.denied' AND details->>'scope' IS NOT NULL`,
    );
    expect(audited.rows).toEqual([{ scope: 'device_groups' }]);
    expect((await post(`/devices/${inside[0]}/calls`, body)).status).toBe(202);
  });

  it("sees only its devices' calls; another device's call is 404 to read or cancel", async () => {
    const mine = await insertCall(h.pool, { deviceId: inside[1]!, verdict: 'verified' });
    const theirs = await insertCall(h.pool, { deviceId: outside });
    const listed = (await get('/calls')).body.items.map((c: Json) => c.id);
    expect(listed).toContain(mine);
    expect(listed).not.toContain(theirs);
    expect((await get(`/calls/${mine}`)).status).toBe(200);
    expect((await get(`/calls/${theirs}`)).body).toMatchObject({
      statusCode: 404,
      message: `no call ${theirs}`,
    });
    expect((await post(`/calls/${theirs}/cancel`, { reason: 'no' })).status).toBe(404);
    const { rows } = await h.pool.query('SELECT cancelled_by FROM call WHERE id = $1', [theirs]);
    expect(rows[0].cancelled_by).toBeNull();
  });

  it('creates and previews campaigns only over its own groups, and cannot see one over the fleet', async () => {
    const action = { kind: 'tool', tool: 'self.get_device_status' };
    for (const selector of [
      { board: 'bread-compact-wifi' },
      { groups: ['other'] },
      { groups: ['lobby', 'other'] },
    ]) {
      const refused = await post('/campaigns/preview', { selector, action });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        code: 'outside_key_scope',
        issues: [{ field: 'body.selector.groups' }],
      });
    }
    const preview = await post('/campaigns/preview', { selector: { groups: ['lobby', 'lab'] }, action });
    expect(preview.body.matched).toBe(3);
    const own = await post('/campaigns', { name: 'bounded', selector: { groups: ['lobby'] }, action });
    expect(own.status).toBe(201);
    expect((await get(`/campaigns/${own.body.id}`)).status).toBe(200);
    const fleetWide = await post(
      '/campaigns',
      { name: 'fleet', selector: { board: 'bread-compact-wifi' }, action },
      operator.key,
    );
    expect((await get(`/campaigns/${fleetWide.body.id}`)).status).toBe(404);
    expect((await post(`/campaigns/${fleetWide.body.id}/start`, {})).status).toBe(404);
  });

  it('is refused the routes that span the fleet, with 403 outside_key_scope', async () => {
    for (const path of ['/approvals', '/groups', '/reports/integrity', '/fleet/summary', '/quarantine']) {
      const refused = await get(path);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('outside_key_scope');
    }
    expect((await get('/auth/me')).status).toBe(200);
    expect((await get('/firmware')).status).toBe(200);
  });

  it('hears only the live events of its devices', async () => {
    const redis: Redis = createRedis(h.redis.url);
    try {
      const bus = new PlatformEventBus(redis);
      const [scoped, whole] = await Promise.all([openStream(h, bounded), openStream(h, operator.key)]);
      const at = new Date().toISOString();
      for (const deviceId of [outside, inside[2]!]) {
        bus.publish({ type: 'presence', deviceId, state: 'online', connectionId: 'c1', at });
      }
      bus.publish({ type: 'approval', approvalId: 'a1', state: 'pending', at });
      await waitFor(() => whole.events.length === 3, { what: "the unscoped stream's three events" });
      await waitFor(() => scoped.events.length >= 1, { what: 'the bounded stream' });
      expect(scoped.events.map((e) => e.data['deviceId'])).toEqual([inside[2]]);
      scoped.close();
      whole.close();
    } finally {
      redis.disconnect();
    }
  });

  it('stays bounded when its groups are deleted: it then reaches no device at all', async () => {
    const key = await post(
      '/api-keys',
      { operatorId: operator.operatorId, name: 'short-lived', role: 'viewer', groups: [groups.other] },
      admin.key,
    );
    expect((await get('/devices', key.body.key)).body.items.map((d: Json) => d.id)).toEqual([
      devices[3],
      outside,
    ]);
    expect((await h.request('DELETE', `/api/v1/groups/${groups.other}`, { key: admin.key })).status).toBe(
      200,
    );
    await waitFor(async () => (await get('/devices', key.body.key)).body.items.length === 0, {
      what: 'the bounded key to see nothing',
    });
    expect((await get(`/devices/${outside}`, key.body.key)).status).toBe(404);
    const listed = (await get(`/api-keys?operatorId=${operator.operatorId}`, admin.key)).body as Json[];
    expect(listed.find((k) => k.id === key.body.id)!.groups).toEqual([]);
  });

  it('names only routes that exist, and bounds every route about one device by that device', async () => {
    const paths = (await h.request('GET', '/docs/json')).body.paths as Record<
      string,
      Record<string, unknown>
    >;
    const routes = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map(
        (m) => `${m.toUpperCase()} ${path.replace(/^\/api\/v1/, '').replace(/\{(\w+)\}/g, ':$1')}`,
      ),
    );
    expect(Object.keys(SCOPED_ROUTES).filter((r) => !routes.includes(r))).toEqual([]);
    const deviceRoutes = routes.filter((r) => / \/devices\/:id/.test(r));
    expect(deviceRoutes.length).toBeGreaterThan(10);
    for (const route of deviceRoutes) {
      const [method, path] = route.split(' ') as [string, string];
      expect([route, scopeRuleOf(method, `/api/v1${path}`)]).toEqual([route, 'device']);
    }
  });
});
