import { parseApiKey } from '@fleet/auth';
import { startHarness, type Harness, type Person } from '../../test/harness';
import { insertDevices } from '../../test/harness';

describe('people, keys and roles', () => {
  let h: Harness;
  let admin: Person;
  let operator: Person;
  let viewer: Person;
  let device: string;

  beforeAll(async () => {
    h = await startHarness({ LOGIN_MAX_FAILURES: '3' });
    admin = await h.person('admin');
    operator = await h.person('operator', { password: 'correct horse battery staple' });
    viewer = await h.person('viewer');
    device = (await insertDevices(h.pool, 1))[0]!;
  });
  afterAll(() => h.stop());

  it('signs a person in with their password; the session works until they sign out', async () => {
    const login = await h.request('POST', '/api/v1/auth/login', {
      body: { email: operator.email, password: 'correct horse battery staple' },
    });
    expect(login.status).toBe(200);
    expect(login.body.operator).toMatchObject({ id: operator.operatorId, role: 'operator' });
    expect(String(login.headers['set-cookie'])).toMatch(/^fleet_session=fs_.+HttpOnly; SameSite=Strict/);
    const token = login.body.token as string;

    const me = await h.request('GET', '/api/v1/auth/me', { key: token });
    expect(me.body).toMatchObject({ id: operator.operatorId, via: 'session' });
    const byCookie = await h.request('GET', '/api/v1/auth/me', {
      headers: { cookie: `fleet_session=${token}` },
    });
    expect(byCookie.status).toBe(200);

    const stored = await h.pool.query('SELECT token_hash FROM session WHERE operator_id = $1', [
      operator.operatorId,
    ]);
    expect(stored.rows[0].token_hash).not.toContain(token.slice(3));

    expect((await h.request('POST', '/api/v1/auth/logout', { key: token })).status).toBe(204);
    const after = await h.request('GET', '/api/v1/auth/me', { key: token });
    expect(after.status).toBe(401);
    const again = await h.request('POST', '/api/v1/auth/login', {
      body: { email: operator.email, password: 'correct horse battery staple' },
      headers: { cookie: `fleet_session=${token}` }, // the ended session's cookie is still in the browser
    });
    expect(again.status).toBe(200);
  });

  it('refuses a wrong password, then refuses to try at all after repeated failures', async () => {
    const person = await h.person('viewer', { password: 'a long enough password' });
    const attempt = (password: string) =>
      h.request('POST', '/api/v1/auth/login', { body: { email: person.email, password } });
    for (let i = 0; i < 3; i++) expect((await attempt('wrong')).status).toBe(401);
    const blocked = await attempt('a long enough password');
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('too_many_attempts');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('refuses requests without credentials or with a malformed one', async () => {
    expect((await h.request('GET', '/api/v1/devices')).status).toBe(401);
    const bad = await h.request('GET', '/api/v1/devices', { key: 'fk_0123456789_notreallyakey' });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe('invalid_credentials');
  });

  it('does not let a viewer call a tool', async () => {
    const r = await h.request('POST', `/api/v1/devices/${device}/calls`, {
      key: viewer.key,
      body: { tool: 'self.get_device_status' },
    });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 'role_required', message: expect.stringContaining('operator') });
    const calls = await h.pool.query('SELECT count(*)::int AS n FROM call');
    expect(calls.rows[0].n).toBe(0);
  });

  it('does not let an operator manage keys or people', async () => {
    const create = await h.request('POST', '/api/v1/api-keys', {
      key: operator.key,
      body: { operatorId: operator.operatorId, name: 'mine', role: 'operator' },
    });
    expect(create.status).toBe(403);
    expect((await h.request('GET', '/api/v1/api-keys', { key: operator.key })).status).toBe(403);
    expect((await h.request('GET', '/api/v1/operators', { key: operator.key })).status).toBe(403);
  });

  it('shows a new key once, stores only its hash, and stops honouring it when revoked', async () => {
    const created = await h.request('POST', '/api/v1/api-keys', {
      key: admin.key,
      body: { operatorId: viewer.operatorId, name: 'dashboard', role: 'viewer' },
    });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    expect(key).toMatch(/^fk_/);
    const row = await h.pool.query('SELECT secret_hash FROM api_key WHERE id = $1', [created.body.id]);
    expect(row.rows[0].secret_hash).not.toContain(parseApiKey(key)!.secret);
    const listed = await h.request('GET', `/api/v1/api-keys?operatorId=${viewer.operatorId}`, {
      key: admin.key,
    });
    expect(JSON.stringify(listed.body)).not.toContain(key);

    expect((await h.request('GET', '/api/v1/devices', { key })).status).toBe(200);
    expect(
      (await h.request('DELETE', `/api/v1/api-keys/${created.body.id}`, { key: admin.key })).status,
    ).toBe(200);
    expect((await h.request('GET', '/api/v1/devices', { key })).status).toBe(401);
  });

  it('never gives a key more than its owner has, even after the owner is demoted', async () => {
    const tooMuch = await h.request('POST', '/api/v1/api-keys', {
      key: admin.key,
      body: { operatorId: operator.operatorId, name: 'x', role: 'admin' },
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.issues).toEqual([{ field: 'body.role', message: expect.any(String) }]);

    const person = await h.person('operator');
    await h.request('PATCH', `/api/v1/operators/${person.operatorId}`, {
      key: admin.key,
      body: { role: 'viewer' },
    });
    const me = await h.request('GET', '/api/v1/auth/me', { key: person.key });
    expect(me.body.role).toBe('viewer');
  });

  it('creates operators with a password they can sign in with, and disabling one ends their access', async () => {
    const created = await h.request('POST', '/api/v1/operators', {
      key: admin.key,
      body: {
        email: 'New.Person@Example.com',
        name: 'New Person',
        role: 'operator',
        password: 'twelve chars!',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: 'new.person@example.com', hasPassword: true });
    const login = await h.request('POST', '/api/v1/auth/login', {
      body: { email: 'new.person@example.com', password: 'twelve chars!' },
    });
    expect(login.status).toBe(200);
    await h.request('PATCH', `/api/v1/operators/${created.body.id}`, {
      key: admin.key,
      body: { disabled: true },
    });
    expect((await h.request('GET', '/api/v1/auth/me', { key: login.body.token })).status).toBe(401);
  });

  it('keeps at least one enabled admin', async () => {
    const r = await h.request('PATCH', `/api/v1/operators/${admin.operatorId}`, {
      key: admin.key,
      body: { role: 'operator' },
    });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('last_admin');
  });

  it('records who did what from where for mutating requests, refused ones included', async () => {
    await h.request('POST', '/api/v1/api-keys', {
      key: admin.key,
      body: { operatorId: viewer.operatorId, name: 'audited', role: 'viewer' },
      headers: { 'user-agent': 'audit-test/1' },
    });
    await h.request('POST', '/api/v1/api-keys', {
      key: operator.key,
      body: { operatorId: operator.operatorId, name: 'denied', role: 'viewer' },
    });
    const { rows } = await h.pool.query(
      `SELECT action, operator_id, api_key_id, target_type, ip, user_agent, details FROM audit_event
        WHERE action IN ('api_key.create', 'access.denied') ORDER BY id`,
    );
    const created = rows.find((r) => r.action === 'api_key.create' && r.user_agent === 'audit-test/1');
    expect(created).toMatchObject({ operator_id: admin.operatorId, target_type: 'api_key', ip: '127.0.0.1' });
    expect(created.api_key_id).toEqual(expect.any(String));
    expect(created.details).toMatchObject({ status: 201, outcome: 'done', body: { name: 'audited' } });
    expect(
      rows.filter((r) => r.action === 'access.denied').map((r) => [r.operator_id, r.details]),
    ).toContainEqual([operator.operatorId, { needed: 'admin', held: 'operator' }]);
  });

  it('blanks passwords in audit events', async () => {
    await h.request('POST', '/api/v1/auth/login', {
      body: { email: viewer.email, password: 'secret-guess' },
    });
    const { rows } = await h.pool.query(`SELECT details FROM audit_event WHERE action = 'auth.login'`);
    expect(JSON.stringify(rows)).not.toContain('secret-guess');
    expect(rows.at(-1).details.body.password).toBe('[redacted]');
  });

  const signIn = async (email: string, password: string): Promise<string> => {
    const r = await h.request('POST', '/api/v1/auth/login', { body: { email, password } });
    expect(r.status).toBe(200);
    return r.body.token as string;
  };
  const works = async (token: string) => (await h.request('GET', '/api/v1/auth/me', { key: token })).status;

  it("ends a person's sessions when an admin sets a new password for them", async () => {
    const person = await h.person('operator', { password: 'the first password' });
    const [laptop, phone] = [
      await signIn(person.email, 'the first password'),
      await signIn(person.email, 'the first password'),
    ];
    const reset = await h.request('PATCH', `/api/v1/operators/${person.operatorId}`, {
      key: admin.key,
      body: { password: 'set by the admin' },
    });
    expect(reset.status).toBe(200);
    expect([await works(laptop), await works(phone)]).toEqual([401, 401]);
    expect(await works(person.key)).toBe(200); // API keys are credentials of their own, revoked on their own
    await signIn(person.email, 'set by the admin');
  });

  it('lets a person change their own password, ending their other sessions but not the one they used', async () => {
    const person = await h.person('viewer', { password: 'my old password' });
    const [here, elsewhere] = [
      await signIn(person.email, 'my old password'),
      await signIn(person.email, 'my old password'),
    ];
    const wrong = await h.request('POST', '/api/v1/auth/password', {
      key: here,
      body: { currentPassword: 'not my password', password: 'my new password!' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.issues).toEqual([{ field: 'body.currentPassword', message: 'wrong password' }]);
    expect(await works(elsewhere)).toBe(200);

    const changed = await h.request('POST', '/api/v1/auth/password', {
      key: here,
      body: { currentPassword: 'my old password', password: 'my new password!' },
    });
    expect(changed.status).toBe(204);
    expect([await works(here), await works(elsewhere)]).toEqual([200, 401]);
    const old = await h.request('POST', '/api/v1/auth/login', {
      body: { email: person.email, password: 'my old password' },
    });
    expect(old.status).toBe(401);
    await signIn(person.email, 'my new password!');
    const { rows } = await h.pool.query(
      `SELECT details FROM audit_event WHERE action = 'auth.password_change'`,
    );
    expect(JSON.stringify(rows)).not.toContain('my new password!');
  });

  it('keeps the session of an admin who resets their own password, and ends their others', async () => {
    const self = await h.person('admin', { password: 'an admin password' });
    const [here, elsewhere] = [
      await signIn(self.email, 'an admin password'),
      await signIn(self.email, 'an admin password'),
    ];
    const r = await h.request('PATCH', `/api/v1/operators/${self.operatorId}`, {
      key: here,
      body: { password: 'a new admin password' },
    });
    expect(r.status).toBe(200);
    expect([await works(here), await works(elsewhere)]).toEqual([200, 401]);
  });
});
