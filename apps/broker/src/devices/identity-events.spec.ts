import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';

// The grant exemption of migration 20261201211908 (Prisma cannot describe grants): identity changes are evidence.
describe('identity events for the application role', () => {
  let db: TestDatabase;
  let app: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    app = new Pool({ connectionString: db.url, max: 1 });
  });
  afterAll(async () => {
    await app.end();
    await db.drop();
  });

  it('may be added but never changed or removed', async () => {
    await app.query(
      `INSERT INTO device (id, client_id, updated_at) VALUES ('02:00:00:00:00:01', 'h', now())`,
    );
    await app.query(
      `INSERT INTO device_identity_event (device_id, field, previous, current, source)
       VALUES ('02:00:00:00:00:01', 'board', 'a', 'b', 'check_in')`,
    );
    await expect(app.query(`UPDATE device_identity_event SET current = 'forged'`)).rejects.toThrow(
      /permission denied/,
    );
    await expect(app.query('DELETE FROM device_identity_event')).rejects.toThrow(/permission denied/);
    await expect(app.query('TRUNCATE device_identity_event')).rejects.toThrow(/permission denied/);
  });
});
