import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createDatabase, type Database } from './kysely';
import { createPgPool, type Pool } from './pg-pool';

describe('the Kysely database', () => {
  let testDb: TestDatabase;
  let pool: Pool;
  let db: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    pool = createPgPool(testDb.url, { max: 2 });
    db = createDatabase(pool);
  });
  afterAll(async () => {
    await pool.end();
    await testDb.drop();
  });

  it('writes and reads a row as the application role, with the columns and defaults the schema declares', async () => {
    await db
      .insertInto('device')
      .values({ id: 'a0:85:e3:00:00:01', client_id: 'hash', updated_at: new Date() })
      .execute();
    const row = await db
      .selectFrom('device')
      .select(['id', 'status', 'dialect', 'created_at'])
      .where('id', '=', 'a0:85:e3:00:00:01')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      id: 'a0:85:e3:00:00:01',
      status: 'active',
      dialect: 'xiaozhi',
      created_at: expect.any(Date),
    });
  });
});
