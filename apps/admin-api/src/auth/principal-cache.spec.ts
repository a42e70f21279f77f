import { createLogger } from '@fleet/telemetry';
import { startAdminApi, type AdminApiHandle } from '../admin-api-app';
import { loadAdminApiConfig } from '../config';
import { startHarness, type Harness, type Person } from '../../test/harness';
import { CredentialChanges, LISTENER_NAME } from './credential-changes-adapter';
import { CredentialsRepository } from './credentials.repository';

// Two replicas on one database: what one remembers about a key or a session, a change made through the other
// (or straight in the database) makes it forget before the credential is honoured again.
describe('the remembered principal', () => {
  let h: Harness;
  let other: AdminApiHandle;
  let admin: Person;

  const me = async (api: AdminApiHandle, key: string) =>
    (
      await api.app.inject({
        method: 'GET',
        url: '/api/v1/auth/me',
        headers: { authorization: `Bearer ${key}` },
      })
    ).statusCode;
  const changesOf = (api: AdminApiHandle) => api.app.get(CredentialChanges);

  beforeAll(async () => {
    h = await startHarness();
    other = await startAdminApi(
      loadAdminApiConfig({
        DATABASE_URL: h.db.url,
        REDIS_URL: h.redis.url,
        QUEUE_PREFIX: h.queuePrefix,
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        LOG_LEVEL: 'silent',
        WEBHOOK_WORKER: 'false',
      }),
      createLogger('admin-api-replica-test', 'silent'),
    );
    await Promise.all([changesOf(h.api).listening(), changesOf(other).listening()]);
    admin = await h.person('admin');
  });
  afterAll(async () => {
    await other.stop();
    await h.stop();
  });

  it('reads a key from the database once, not on every request', async () => {
    const person = await h.person('viewer');
    const lookups = jest.spyOn(other.app.get(CredentialsRepository), 'keyByPrefix');
    try {
      for (let i = 0; i < 3; i++) expect(await me(other, person.key)).toBe(200);
      expect(lookups).toHaveBeenCalledTimes(1);
    } finally {
      lookups.mockRestore();
    }
  });

  it('refuses a key revoked through one replica on that replica at once, and on the other once notified', async () => {
    const person = await h.person('operator');
    expect(await me(h.api, person.key)).toBe(200);
    expect(await me(other, person.key)).toBe(200); // remembered on both now
    const { rows } = await h.pool.query<{ id: string }>('SELECT id FROM api_key WHERE operator_id = $1', [
      person.operatorId,
    ]);
    const heard = changesOf(other).nextClear();
    const revoke = await h.request('DELETE', `/api/v1/api-keys/${rows[0]!.id}`, { key: admin.key });
    expect(revoke.status).toBe(200);
    expect(await me(h.api, person.key)).toBe(401);
    await heard;
    expect(await me(other, person.key)).toBe(401);
  });

  it('refuses the keys of a person disabled straight in the database, on every replica', async () => {
    const person = await h.person('operator');
    expect(await me(h.api, person.key)).toBe(200);
    expect(await me(other, person.key)).toBe(200);
    const heard = Promise.all([changesOf(h.api).nextClear(), changesOf(other).nextClear()]);
    await h.pool.query('UPDATE operator SET disabled_at = now() WHERE id = $1', [person.operatorId]);
    await heard;
    expect(await me(h.api, person.key)).toBe(401);
    expect(await me(other, person.key)).toBe(401);
  });

  it('ends a session signed out on one replica on the other too', async () => {
    const person = await h.person('viewer', { password: 'a long enough password' });
    const login = await h.request('POST', '/api/v1/auth/login', {
      body: { email: person.email, password: 'a long enough password' },
    });
    const token = login.body.token as string;
    expect(await me(other, token)).toBe(200);
    const heard = changesOf(other).nextClear();
    expect((await h.request('POST', '/api/v1/auth/logout', { key: token })).status).toBe(204);
    await heard;
    expect(await me(other, token)).toBe(401);
  });

  it('reads every request from the database while it cannot hear notices, and remembers again once it can', async () => {
    const person = await h.person('viewer');
    const changes = changesOf(other);
    const lookups = jest.spyOn(other.app.get(CredentialsRepository), 'keyByPrefix');
    try {
      await h.owner.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
        [LISTENER_NAME],
      );
      await waitUntil(() => !changes.cache.enabled);
      expect(await me(other, person.key)).toBe(200);
      expect(await me(other, person.key)).toBe(200);
      expect(lookups).toHaveBeenCalledTimes(2);
      await changes.listening();
      expect(await me(other, person.key)).toBe(200);
      expect(await me(other, person.key)).toBe(200);
      expect(lookups).toHaveBeenCalledTimes(3);
    } finally {
      lookups.mockRestore();
    }
  });
});

async function waitUntil(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}
