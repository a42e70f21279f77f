import { startTcpProxy, waitFor, type TcpProxy } from '@fleet/testing';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createPgPool } from './pg-pool';

describe('the pg pool through a Postgres restart', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;

  beforeAll(async () => {
    db = await createTestDatabase();
    const url = new URL(db.url);
    proxy = await startTcpProxy(Number(url.port || 5432), url.hostname);
  });
  afterAll(async () => {
    await proxy.close();
    await db.drop();
  });

  it('reports, and survives, the death of a connection checked out mid-transaction', async () => {
    const url = new URL(db.url);
    url.port = String(proxy.port);
    const errors: string[] = [];
    const pool = createPgPool(url.toString(), { max: 2, onError: (err) => errors.push(err.message) });
    const client = await pool.connect();
    await client.query('BEGIN');
    // An unheard 'error' on the checked-out client would be an uncaught exception here (the process dies).
    await proxy.cut();
    await waitFor(() => errors.length > 0, { what: 'the connection error reported' });
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release(true);
    await proxy.restore();
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });
});

describe('a pg pool of the platform', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('runs its statements without JIT compilation', async () => {
    const pool = createPgPool(db.url, { max: 1 });
    expect((await pool.query<{ jit: string }>('SHOW jit')).rows[0]!.jit).toBe('off');
    await pool.end();
  });
});
