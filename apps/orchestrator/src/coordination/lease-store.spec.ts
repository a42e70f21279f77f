import { Pool, type PoolClient } from 'pg';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { LeaseStore } from './lease-store';

const TTL_MS = 10_000;

// A partition owner's round: its beat (which sizes every replica's fair share) and its lease renewals.
describe('the lease store round', () => {
  let db: TestDatabase;
  let pool: Pool;
  let statements: string[];

  const expiresInMs = async (name: string) => {
    const { rows } = await pool.query<{ ms: number }>(
      `SELECT extract(epoch FROM expires_at - now()) * 1000 AS ms FROM service_lease WHERE name = $1`,
      [name],
    );
    return Number(rows[0]!.ms);
  };

  beforeEach(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 3 });
    statements = [];
    // Records what reaches Postgres: every statement of the real connections, BEGIN and COMMIT included.
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        const first = args[0];
        statements.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
        return query(...args);
      };
    });
  });
  afterEach(async () => {
    await pool.end();
    await db.drop();
  });

  it('beats, renews what it still holds and counts the live replicas in one statement', async () => {
    const other = new LeaseStore(pool, 'replica-b', TTL_MS);
    await other.beatAndRenew('orchestrator', []);
    const store = new LeaseStore(pool, 'replica-a', TTL_MS);
    const kept = (await store.acquire('calls-p00'))!;
    const lost = (await store.acquire('calls-p01'))!;
    await pool.query(`UPDATE service_lease SET expires_at = now() + interval '1 second'`);
    // Expired and taken by another replica meanwhile: no longer ours to renew.
    await pool.query(
      `UPDATE service_lease SET expires_at = now() - interval '1 second' WHERE name = 'calls-p01'`,
    );
    await other.acquire('calls-p01');
    statements = [];

    const round = await store.beatAndRenew('orchestrator', [kept, lost]);

    expect(statements).toHaveLength(1);
    expect(round).toEqual({ live: 2, held: new Set(['calls-p00']) });
    expect(await expiresInMs('calls-p00')).toBeGreaterThan(TTL_MS - 1_000);
    const { rows } = await pool.query(
      `SELECT id FROM service_instance WHERE kind = 'orchestrator' AND heartbeat_at > now() - interval '1 second' ORDER BY id`,
    );
    expect(rows).toEqual([{ id: 'replica-a' }, { id: 'replica-b' }]);
  });

  it('counts itself live on its very first beat and holds nothing before it takes a lease', async () => {
    const store = new LeaseStore(pool, 'replica-a', TTL_MS);
    expect(await store.beatAndRenew('orchestrator', [])).toEqual({ live: 1, held: new Set() });
  });

  it('does not wait for a commit batch that holds its lease lock', async () => {
    const store = new LeaseStore(pool, 'replica-a', TTL_MS);
    const lease = (await store.acquire('calls-p02'))!;
    const batch: PoolClient = await pool.connect();
    let timer: NodeJS.Timeout | undefined;
    try {
      // What a commit batch holds while it writes under the lease (the fence's FOR KEY SHARE).
      await batch.query('BEGIN');
      await batch.query(`SELECT name FROM service_lease WHERE name = $1 FOR KEY SHARE`, [lease.name]);
      const round = await Promise.race([
        store.beatAndRenew('orchestrator', [lease]),
        new Promise((resolve) => (timer = setTimeout(() => resolve('waited'), 3_000))),
      ]);
      expect(round).toEqual({ live: 1, held: new Set(['calls-p02']) });
    } finally {
      clearTimeout(timer);
      await batch.query('ROLLBACK');
      batch.release();
    }
  });
});
