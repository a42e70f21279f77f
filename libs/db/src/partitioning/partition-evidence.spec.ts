import { Client } from 'pg';
import { ChainWalk, evidenceHash, GENESIS_HASH, partitionOf, type StoredLink } from '@fleet/domain';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createDatabase, type Database } from '../client/kysely';
import { createPgPool, type Pool } from '../client/pg-pool';
import { CommitQueue } from '../repositories/evidence/commit-queue';
import { isChainConflict } from '../repositories/evidence/evidence-chain.repository';
import { addMonths, monthOf, monthsBetween, partitionName } from './months';
import { partitionEvidence, type PartitionEvidenceReport } from './partition-evidence';
import { FIXTURE_HOLDER, FIXTURE_LEASE, seedWriterFixture } from './writer-fixture.repository';

const DEVICE_NOW = 'a0:85:e3:00:02:01';
const DEVICE_PAST = 'a0:85:e3:00:02:02';
const callIdOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const thisMonth = monthOf(new Date());
// The 15th of a month before this one, at noon UTC: far from any month boundary.
const pastInstant = (monthsBack: number) => {
  const m = addMonths(thisMonth, -monthsBack);
  return new Date(Date.UTC(m.year, m.month - 1, 15, 12));
};

describe('evidence partitioned by month (db:partition-evidence)', () => {
  let testDb: TestDatabase;
  let pool: Pool;
  let db: Database;
  let owner: Client;
  let app: Client;
  let converted: PartitionEvidenceReport;
  let rowsBefore: number;
  const writer = () =>
    new CommitQueue(pool, FIXTURE_HOLDER, () => FIXTURE_LEASE, { maxConcurrentBatches: 1, maxBatchSize: 10 });
  const write = (callId: string, device: string) =>
    writer().submit(partitionOf(device), (tx) =>
      tx.appendEvidence(callId, device, [{ stage: 'decision', payload: { n: 1 } }], {
        verdict: 'verified',
        reason: 'read back',
        sealedAt: new Date(),
      }),
    );

  beforeAll(async () => {
    testDb = await createTestDatabase();
    pool = createPgPool(testDb.url, { max: 2 });
    db = createDatabase(pool);
    owner = new Client({ connectionString: testDb.ownerUrl });
    app = new Client({ connectionString: testDb.url });
    await Promise.all([owner.connect(), app.connect()]);
    await seedWriterFixture(
      db,
      [1, 2, 3, 4, 5, 6, 7].map((n) => ({
        callId: callIdOf(n),
        deviceId: n <= 3 ? DEVICE_NOW : DEVICE_PAST,
      })),
    );
    // Rows of this month through the orchestrator's writer, and an older chain of two earlier months.
    await write(callIdOf(1), DEVICE_NOW);
    await insertPastChain(owner, DEVICE_PAST, [
      { callId: callIdOf(4), at: pastInstant(2) },
      { callId: callIdOf(5), at: pastInstant(1) },
    ]);
    rowsBefore = await count(owner, 'SELECT count(*)::int AS n FROM evidence');
    converted = await partitionEvidence(owner);
  });
  afterAll(async () => {
    await Promise.all([owner.end(), app.end(), pool.end()]);
    await testDb.drop();
  });

  it('converts the plain table once, moving every row, with a partition for each month from the oldest row to three ahead', async () => {
    const months = monthsBetween(addMonths(thisMonth, -2), addMonths(thisMonth, 3));
    expect(converted).toMatchObject({ converted: true, movedRows: rowsBefore });
    expect(converted.partitions).toEqual(months.map((m) => partitionName('evidence', m)));
    expect(
      await count(
        owner,
        `SELECT count(*)::int AS n FROM pg_class WHERE relname = 'evidence' AND relkind = 'p'`,
      ),
    ).toBe(1);
    expect(await count(owner, 'SELECT count(*)::int AS n FROM evidence')).toBe(rowsBefore);
  });

  it("keeps the payload's compression in the partitioned table and every partition", async () => {
    const { rows } = await owner.query<{ rel: string; compression: string }>(
      `SELECT attrelid::regclass::text AS rel, attcompression AS compression FROM pg_attribute
        WHERE attname = 'payload' AND attrelid IN (SELECT 'evidence'::regclass UNION ALL
                                                   SELECT inhrelid FROM pg_inherits WHERE inhparent = 'evidence'::regclass)`,
    );
    expect(rows).toHaveLength(converted.partitions.length + 1);
    for (const r of rows) expect(r).toEqual({ rel: r.rel, compression: 'l' });
  });

  it('puts each row in the partition of its created_at month', async () => {
    const { rows } = await owner.query<{ part: string; created_at: Date }>(
      'SELECT tableoid::regclass::text AS part, created_at FROM evidence',
    );
    expect(new Set(rows.map((r) => r.part)).size).toBe(3);
    for (const r of rows) expect(r.part).toBe(partitionName('evidence', monthOf(r.created_at)));
  });

  it("lets the orchestrator's writer go on chaining on the same connections, and every chain still walks", async () => {
    await write(callIdOf(2), DEVICE_NOW);
    await write(callIdOf(6), DEVICE_PAST);
    const { rows } = await owner.query<{
      device_id: string;
      seq: string;
      call_id: string;
      stage: StoredLink['stage'];
      payload: unknown;
      prev_hash: string;
      hash: string;
      created_at: Date;
    }>(
      'SELECT device_id, seq::text, call_id, stage, payload, prev_hash, hash, created_at FROM evidence ORDER BY device_id, seq',
    );
    const walk = new ChainWalk();
    for (const r of rows)
      walk.next({
        deviceId: r.device_id,
        seq: r.seq,
        callId: r.call_id,
        stage: r.stage,
        payload: r.payload,
        prevHash: r.prev_hash,
        hash: r.hash,
        createdAt: r.created_at.toISOString(),
      });
    expect({ breaks: walk.breaks(), devices: walk.devices, links: walk.links }).toEqual({
      breaks: [],
      devices: 2,
      links: rowsBefore + 4,
    });
  });

  it("moves a call to sending and then seals it through the runner's one-statement steps, rows and seal in this month's partition", async () => {
    const callId = callIdOf(7);
    const queue = writer();
    await expect(
      queue.step({
        partition: partitionOf(DEVICE_PAST),
        callId,
        deviceId: DEVICE_PAST,
        transition: { to: 'sending', jsonrpcId: 1, connectionId: 'c-1', catalogVersionId: null },
        rows: [
          { stage: 'discovery', payload: { board: 'b' } },
          { stage: 'decision', payload: { outcome: 'allowed' } },
        ],
      }),
    ).resolves.toMatchObject({ moved: true });
    // The seal is checked at commit by call_sealed_with_seal, which reads it back from the partitioned table.
    await expect(
      queue.step({
        partition: partitionOf(DEVICE_PAST),
        callId,
        deviceId: DEVICE_PAST,
        transition: {
          to: 'finished',
          verdict: 'verified',
          reason: 'the reply is the effect',
          result: { text: '{}', isError: false },
          sealedAt: new Date(),
        },
        rows: [{ stage: 'effect', payload: { method: 'reply_is_effect' } }],
      }),
    ).resolves.toEqual({ moved: true });
    const { rows } = await owner.query<{ stage: string; part: string }>(
      'SELECT stage, tableoid::regclass::text AS part FROM evidence WHERE call_id = $1 ORDER BY seq',
      [callId],
    );
    expect(rows).toEqual(
      ['discovery', 'decision', 'effect', 'seal'].map((stage) => ({
        stage,
        part: partitionName('evidence', thisMonth),
      })),
    );
    const call = await db
      .selectFrom('call')
      .select('state')
      .where('id', '=', callId)
      .executeTakeFirstOrThrow();
    expect(call.state).toBe('finished');
  });

  it('refuses a duplicate (device_id, seq) with the constraint the writer retries on, even across months', async () => {
    const err = await insertAs(app, {
      callId: callIdOf(3),
      device: DEVICE_PAST,
      seq: 1,
      stage: 'decision',
      at: new Date(),
    });
    expect({ code: err?.code, constraint: err?.constraint, chainConflict: isChainConflict(err) }).toEqual({
      code: '23505',
      constraint: 'evidence_device_id_seq_key',
      chainConflict: true,
    });
  });

  it('refuses a second row of one stage for a call (call_id, stage)', async () => {
    const err = await insertAs(app, {
      callId: callIdOf(1),
      device: DEVICE_NOW,
      seq: 999,
      stage: 'decision',
      at: new Date(),
    });
    expect({ code: err?.code, constraint: err?.constraint }).toEqual({
      code: '23505',
      constraint: 'evidence_call_id_stage_key',
    });
  });

  it('keeps the foreign key to call and the CHECK that only seal links carry a signature', async () => {
    const orphan = await insertAs(app, {
      callId: callIdOf(99),
      device: DEVICE_NOW,
      seq: 900,
      stage: 'decision',
      at: new Date(),
    });
    expect(orphan?.code).toBe('23503');
    const signed = await app
      .query(
        `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash, seal_key_id)
         VALUES ($1, $2, 'effect', 901, '{}', 'x', 'y', 'k')`,
        [callIdOf(3), DEVICE_NOW],
      )
      .catch((e: { code?: string }) => e);
    expect((signed as { code?: string }).code).toBe('23514');
  });

  it('fails a row for a month that has no partition, naming the table (no default partition)', async () => {
    const far = new Date(Date.UTC(thisMonth.year + 5, 0, 1));
    const err = await insertAs(app, {
      callId: callIdOf(3),
      device: DEVICE_NOW,
      seq: 950,
      stage: 'effect',
      at: far,
    });
    expect(err?.message).toMatch(/no partition of relation "evidence" found for row/);
  });

  it('lets the application role neither change nor remove rows, through the table or any partition', async () => {
    const tables = ['evidence', 'evidence_key', ...converted.partitions];
    for (const table of tables)
      for (const sql of [`UPDATE ${table} SET seq = seq`, `DELETE FROM ${table}`, `TRUNCATE ${table}`])
        await expect(app.query(sql)).rejects.toThrow(/permission denied/);
    // Nor write into a partition past the parent's key claim.
    await expect(
      app.query(`INSERT INTO ${converted.partitions[0]} SELECT * FROM evidence LIMIT 0`),
    ).rejects.toThrow(/permission denied/);
  });

  it('refuses changes for every role, the owner included, in every partition', async () => {
    const rowsPart = partitionName('evidence', thisMonth);
    await expect(owner.query(`UPDATE ${rowsPart} SET payload = '{}'`)).rejects.toThrow(/append-only/);
    await expect(owner.query(`DELETE FROM ${rowsPart}`)).rejects.toThrow(/append-only/);
    for (const table of converted.partitions)
      await expect(owner.query(`TRUNCATE ${table}`)).rejects.toThrow(/append-only/);
    await expect(owner.query('TRUNCATE evidence')).rejects.toThrow(/append-only/);
    await expect(owner.query('DELETE FROM evidence_key')).rejects.toThrow(/append-only/);
  });

  it('changes nothing when run again, and a month later adds only the month that came into range', async () => {
    const again = await partitionEvidence(owner);
    expect(again).toEqual({
      layout: 'partitioned',
      converted: false,
      movedRows: 0,
      createdPartitions: [],
      partitions: converted.partitions,
    });
    const later = await partitionEvidence(owner, { now: pastInstant(-1) });
    const added = partitionName('evidence', addMonths(thisMonth, 4));
    expect(later.createdPartitions).toEqual([added]);
    expect(later.partitions).toEqual([...converted.partitions, added]);
    await expect(app.query(`DELETE FROM ${added}`)).rejects.toThrow(/permission denied/);
    await expect(owner.query(`TRUNCATE ${added}`)).rejects.toThrow(/append-only/);
  });
});

async function count(client: Client, sql: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(sql);
  return rows[0]!.n;
}

interface RowSpec {
  callId: string;
  device: string;
  seq: number;
  stage: string;
  at: Date;
}

/** The error an INSERT of one evidence row met, or undefined when it went in. */
async function insertAs(
  client: Client,
  r: RowSpec,
): Promise<{ code?: string; constraint?: string; message: string } | undefined> {
  try {
    await client.query(
      `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash, created_at)
       VALUES ($1, $2, $3, $4, '{}', 'x', 'y', $5)`,
      [r.callId, r.device, r.stage, r.seq, r.at],
    );
    return undefined;
  } catch (err) {
    return err as { code?: string; constraint?: string; message: string };
  }
}

/** A device's chain written with earlier created_at values, each link hashed as the writer hashes it. */
async function insertPastChain(
  owner: Client,
  device: string,
  calls: { callId: string; at: Date }[],
): Promise<void> {
  let prev = GENESIS_HASH;
  let seq = 0;
  for (const c of calls)
    for (const stage of ['decision', 'parameters'] as const) {
      seq++;
      const payload = { stage, seq };
      const createdAt = c.at.toISOString();
      const hash = evidenceHash(prev, {
        callId: c.callId,
        deviceId: device,
        stage,
        seq: String(seq),
        payload,
        createdAt,
      });
      await owner.query(
        `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [c.callId, device, stage, seq, payload, prev, hash, createdAt],
      );
      prev = hash;
    }
}
