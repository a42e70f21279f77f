import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';

// The exemptions from schema.prisma (a role, its grants, the append-only triggers), tested on their own.
describe('the application role', () => {
  let db: TestDatabase;
  let app: Client;
  let owner: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    app = new Client({ connectionString: db.url });
    owner = new Client({ connectionString: db.ownerUrl });
    await Promise.all([app.connect(), owner.connect()]);
    await app.query(
      `INSERT INTO device (id, client_id, updated_at) VALUES ('a0:85:e3:f4:49:34', 'uuid-1', now())`,
    );
    await app.query(
      `INSERT INTO call (id, device_id, partition, tool, arguments, origin, deadline_at)
       VALUES ('00000000-0000-4000-8000-000000000001', 'a0:85:e3:f4:49:34', 0, 'self.get_device_status', '{}', 'operator', now())`,
    );
    await app.query(
      `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash)
       VALUES ('00000000-0000-4000-8000-000000000001', 'a0:85:e3:f4:49:34', 'decision', 1, '{}', '0', 'h1')`,
    );
  });
  afterAll(async () => {
    await Promise.all([app.end(), owner.end()]);
    await db.drop();
  });

  it('is who the services connect as', async () => {
    const { rows } = await app.query<{ user: string }>('SELECT current_user AS user');
    expect(rows[0]?.user).toBe('fleet_app');
  });

  it('may change ordinary rows', async () => {
    const result = await app.query(`UPDATE device SET online = true WHERE id = 'a0:85:e3:f4:49:34'`);
    expect(result.rowCount).toBe(1);
  });

  it.each([
    ['UPDATE', `UPDATE evidence SET payload = '{"forged":true}'`],
    ['DELETE', 'DELETE FROM evidence'],
    ['TRUNCATE', 'TRUNCATE evidence CASCADE'],
    ['UPDATE of a chain head', `UPDATE evidence_chain_head SET hash = 'x'`],
  ])('may not %s evidence', async (_what, sql) => {
    await expect(app.query(sql)).rejects.toThrow(/permission denied/);
  });

  it('cannot rewrite migration history', async () => {
    await expect(app.query('DELETE FROM "_prisma_migrations"')).rejects.toThrow(/permission denied/);
  });

  it('leaves evidence append-only even for the owner, unless the trigger is disabled on purpose', async () => {
    await expect(owner.query(`UPDATE evidence SET hash = 'forged'`)).rejects.toThrow(/append-only/);
    await expect(owner.query('DELETE FROM evidence')).rejects.toThrow(/append-only/);
    const { rows } = await app.query<{ hash: string }>('SELECT hash FROM evidence');
    expect(rows).toEqual([{ hash: 'h1' }]);
  });
});
