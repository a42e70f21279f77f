import { Client } from 'pg';
import { createTestDatabase, waitFor, type TestDatabase } from '@fleet/testing';
import { PostgresCpu } from './postgres-cpu';

describe("a run's Postgres CPU", () => {
  let db: TestDatabase;
  let watcher: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    watcher = new Client({ connectionString: db.ownerUrl });
    await watcher.connect();
  });
  afterAll(async () => {
    await watcher.end();
    await db.drop();
  });

  it('still counts a backend that closed after a sample saw it busy', async () => {
    const cpu = new PostgresCpu(watcher, db.name);
    const from = await cpu.sample();
    const worker = new Client({ connectionString: db.url });
    await worker.connect();
    const { rows } = await worker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // Enough work for the kernel's clock ticks to see it.
    await worker.query('SELECT count(*) FROM generate_series(1, 3000000) AS g WHERE g % 7 = 0');
    const seen = await cpu.sample();
    const busy = seen.get(rows[0]!.pid)!;
    expect(busy).toBeGreaterThan(0);
    await worker.end();
    await waitFor(
      async () =>
        (await watcher.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [rows[0]!.pid])).rowCount === 0,
      { what: 'the closed backend to exit' },
    );
    const to = await cpu.sample();
    expect(to.get(rows[0]!.pid)).toBe(busy);
    expect(PostgresCpu.between(from, to)).toBeGreaterThanOrEqual(busy);
  });
});
