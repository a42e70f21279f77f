import { Client } from 'pg';
import { ChainWalk, partitionOf } from '@fleet/domain';
import { createTestDatabase, waitFor, type TestDatabase } from '@fleet/testing';
import { createDatabase } from '../client/kysely';
import { createPgPool, type Pool } from '../client/pg-pool';
import { CommitQueue } from '../repositories/evidence/commit-queue';
import { monthOf, partitionName } from './months';
import { partitionEvidence } from './partition-evidence';
import { FIXTURE_HOLDER, FIXTURE_LEASE, seedWriterFixture } from './writer-fixture.repository';

const DEVICE = 'a0:85:e3:00:03:01';
const CALLS = ['00000000-0000-4000-8000-000000000301', '00000000-0000-4000-8000-000000000302'];

// The conversion while the platform runs: a writer that arrives during it waits on the table's lock, then
// commits into the partitioned table (its prepared statements re-planned), and a concurrent duplicate claim of a
// seq waits for the first transaction and fails only if that one committed.
describe('converting evidence while the orchestrator writes', () => {
  let testDb: TestDatabase;
  let pool: Pool;
  let owner: Client;
  let blocker: Client;
  /** Its own connection: the owner's is busy with the conversion while this looks. */
  let monitor: Client;
  const busyBackends = async (state: string) => {
    const { rows } = await monitor.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = $1`,
      [state],
    );
    return rows[0]!.n;
  };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    pool = createPgPool(testDb.url, { max: 2 });
    const db = createDatabase(pool);
    owner = new Client({ connectionString: testDb.ownerUrl });
    blocker = new Client({ connectionString: testDb.ownerUrl });
    monitor = new Client({ connectionString: testDb.ownerUrl });
    await Promise.all([owner.connect(), blocker.connect(), monitor.connect()]);
    await seedWriterFixture(
      db,
      CALLS.map((callId) => ({ callId, deviceId: DEVICE })),
    );
  });
  afterAll(async () => {
    await Promise.all([owner.end(), blocker.end(), monitor.end(), pool.end()]);
    await testDb.drop();
  });

  it('lets a writer that arrived during the conversion commit into the partitioned table, chained on', async () => {
    const queue = new CommitQueue(pool, FIXTURE_HOLDER, () => FIXTURE_LEASE, {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    const write = (callId: string) =>
      queue.submit(partitionOf(DEVICE), (tx) =>
        tx.appendEvidence(callId, DEVICE, [{ stage: 'decision', payload: {} }]),
      );
    await write(CALLS[0]!);
    // A reader's open transaction holds the conversion at its lock; the writer then queues behind the conversion.
    await blocker.query('BEGIN');
    await blocker.query('SELECT count(*) FROM evidence');
    const converting = partitionEvidence(owner, { lockTimeout: '60s' });
    await waitFor(async () => (await busyBackends('Lock')) === 1, { what: 'the conversion waiting' });
    const writing = write(CALLS[1]!);
    await waitFor(async () => (await busyBackends('Lock')) === 2, { what: 'the writer waiting too' });
    await blocker.query('COMMIT');
    await expect(converting).resolves.toMatchObject({ converted: true, movedRows: 1 });
    await writing;
    const { rows } = await owner.query<{
      part: string;
      seq: string;
      stage: 'decision';
      call_id: string;
      payload: unknown;
      prev_hash: string;
      hash: string;
      created_at: Date;
    }>(
      'SELECT tableoid::regclass::text AS part, seq::text, stage, call_id, payload, prev_hash, hash, created_at FROM evidence ORDER BY seq',
    );
    const walk = new ChainWalk();
    for (const r of rows)
      walk.next({
        deviceId: DEVICE,
        seq: r.seq,
        callId: r.call_id,
        stage: r.stage,
        payload: r.payload,
        prevHash: r.prev_hash,
        hash: r.hash,
        createdAt: r.created_at.toISOString(),
      });
    expect({
      seqs: rows.map((r) => r.seq),
      parts: [...new Set(rows.map((r) => r.part))],
      breaks: walk.breaks(),
    }).toEqual({
      seqs: ['1', '2'],
      parts: [partitionName('evidence', monthOf(rows[0]!.created_at))],
      breaks: [],
    });
  });

  it('makes a second claim of one seq wait for the first transaction, and fails it once that one commits', async () => {
    const first = new Client({ connectionString: testDb.url });
    const second = new Client({ connectionString: testDb.url });
    await Promise.all([first.connect(), second.connect()]);
    const insert = (c: Client, stage: string) =>
      c.query(
        `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash) VALUES ($1, $2, $3, 50, '{}', 'x', 'y')`,
        [CALLS[1], DEVICE, stage],
      );
    try {
      await first.query('BEGIN');
      await insert(first, 'effect');
      const late = insert(second, 'response').catch((e: { code?: string; constraint?: string }) => e);
      await waitFor(async () => (await busyBackends('Lock')) === 1, { what: 'the second claim waiting' });
      await first.query('COMMIT');
      expect(await late).toMatchObject({ code: '23505', constraint: 'evidence_device_id_seq_key' });
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  });
});
