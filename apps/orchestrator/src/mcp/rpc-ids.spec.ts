import { Pool } from 'pg';
import {
  countStatements,
  createTestDatabase,
  type StatementCounter,
  type TestDatabase,
} from '@fleet/testing';
import { RpcIds } from './rpc-ids';

describe('JSON-RPC id blocks', () => {
  let db: TestDatabase;
  let pool: Pool;
  let statements: StatementCounter;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    statements = countStatements(pool);
    for (let i = 0; i < 20; i++) {
      await pool.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, $1, now())`, [mac(i)]);
    }
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  const mac = (i: number) => `02:7c:00:00:00:${i.toString(16).padStart(2, '0')}`;

  it('reserves the blocks of devices that ask together in one statement, each id used once', async () => {
    const ids = new RpcIds(pool);
    statements.reset();
    // Twenty devices, three ids each, all asked for in the same turn (the same device's asks share a block).
    const asked = Array.from({ length: 20 }, (_, i) => mac(i)).flatMap((m) => [m, m, m]);
    const got = await Promise.all(asked.map((m) => ids.next(m)));
    expect(statements.count).toBe(1);
    for (let i = 0; i < 20; i++) expect(got.slice(i * 3, i * 3 + 3).sort()).toEqual([1, 2, 3]);
    // Another replica (or a restart) starts after every id this one may have used.
    const restarted = new RpcIds(pool);
    expect(await restarted.next(mac(0))).toBe(65);
  });
});
