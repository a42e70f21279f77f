import { startTcpProxy, waitFor, type TcpProxy } from '@fleet/testing';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createPgPool, PoolBusyError } from './pg-pool';

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

  it('says a wait for a connection ran out because the pool was busy while Postgres kept answering', async () => {
    const pool = createPgPool(db.url, { max: 1, connectionTimeoutMs: 300 });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => pool.query('SELECT pg_sleep(0.1)')),
    );
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThan(0);
    for (const err of refused) {
      expect(err).toBeInstanceOf(PoolBusyError);
      expect(err.message).toMatch(/all 1 database connections stayed busy for \d+ ms/);
    }
    await pool.end();
  });

  it("keeps the driver's timeout when no connection came back during the wait", async () => {
    const holder = createPgPool(db.url, { max: 1 });
    const locker = await holder.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE device IN ACCESS EXCLUSIVE MODE');
    const pool = createPgPool(db.url, { max: 1, connectionTimeoutMs: 300 });
    const stuck = pool.query('SELECT count(*) FROM device'); // waits for the lock: its connection never comes back
    const waited = await pool.query('SELECT 1').catch((err: Error) => err);
    expect(waited).toBeInstanceOf(Error);
    expect(waited).not.toBeInstanceOf(PoolBusyError);
    expect((waited as Error).message).toBe('timeout exceeded when trying to connect');
    await locker.query('ROLLBACK');
    locker.release();
    await stuck;
    await pool.end();
    await holder.end();
  });
});
