import { createTestDatabase, startTestRedis, type TestDatabase, type TestRedis } from '@fleet/testing';
import { createLogger } from '@fleet/telemetry';
import { startAdminApi } from './admin-api-app';
import { loadAdminApiConfig } from './config';

// The service's runner (libs/runtime) owns SIGTERM and SIGINT; any other signal is someone else's to handle, such
// as a diagnostic's SIGUSR2 (a GC or a heap snapshot), and must not close the app behind the process's back.
const NOT_OURS = ['SIGHUP', 'SIGUSR2', 'SIGQUIT', 'SIGTERM', 'SIGINT'] as const;

describe('the admin API and process signals', () => {
  let db: TestDatabase;
  let redis: TestRedis;

  beforeAll(async () => {
    [db, redis] = await Promise.all([createTestDatabase(), startTestRedis()]);
  });
  afterAll(async () => {
    await Promise.all([db.drop(), redis.stop()]);
  });

  it('adds no signal listener of its own: stopping is left to its runner', async () => {
    const before = NOT_OURS.map((signal) => process.listenerCount(signal));
    const api = await startAdminApi(
      loadAdminApiConfig({
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
      }),
      createLogger('admin-api-test', 'silent'),
    );
    try {
      expect(NOT_OURS.map((signal) => process.listenerCount(signal))).toEqual(before);
    } finally {
      await api.stop();
    }
  });
});
