import { Pool } from 'pg';
import { evidenceHash, GENESIS_HASH, partitionOf } from '@fleet/domain';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createLogger } from '@fleet/telemetry';
import { LeaseStore, type Lease } from '../coordination/lease-store';
import { partitionLeaseName } from '../coordination/partition-names';
import { ChainHeadRecorder } from './chain-head-recorder';
import { CommitQueue, LeaseLostError } from './commit-queue';

describe('the commit queue', () => {
  let db: TestDatabase;
  let pool: Pool;
  const device = 'a0:85:e3:00:00:07';
  const partition = partitionOf(device);
  const leases = new Map<number, Lease>();

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await pool.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, 'uuid', now())`, [device]);
    for (let i = 0; i < 3; i++) {
      await pool.query(
        `INSERT INTO call (id, device_id, partition, tool, arguments, origin, deadline_at) VALUES ($1, $2, $3, 't', '{}', 'operator', now())`,
        [`00000000-0000-4000-8000-00000000000${i}`, device, partition],
      );
    }
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('chains every device row to the one before, through concurrent batches', async () => {
    const store = new LeaseStore(pool, 'replica-1', 10_000);
    leases.set(partition, (await store.acquire(partitionLeaseName(partition)))!);
    const queue = new CommitQueue(pool, 'replica-1', (p) => leases.get(p), {
      maxConcurrentBatches: 2,
      maxBatchSize: 10,
    });
    await Promise.all(
      [0, 1, 2].map((i) =>
        queue.submit(partition, (tx) =>
          tx.appendEvidence(`00000000-0000-4000-8000-00000000000${i}`, device, [
            { stage: 'discovery', payload: { n: i, nested: { b: 1, a: [1, 2] } } },
            { stage: 'decision', payload: { n: i } },
          ]),
        ),
      ),
    );
    const { rows } = await pool.query<{
      call_id: string;
      stage: 'discovery';
      seq: string;
      payload: unknown;
      prev_hash: string;
      hash: string;
      created_at: Date;
    }>(
      'SELECT call_id, stage, seq::text AS seq, payload, prev_hash, hash, created_at FROM evidence WHERE device_id = $1 ORDER BY evidence.seq',
      [device],
    );
    expect(rows.map((r) => r.seq)).toEqual(['1', '2', '3', '4', '5', '6']);
    let prev = GENESIS_HASH;
    for (const row of rows) {
      expect(row.prev_hash).toBe(prev);
      const recomputed = evidenceHash(prev, {
        callId: row.call_id,
        deviceId: device,
        stage: row.stage,
        seq: BigInt(row.seq),
        payload: row.payload,
        createdAt: row.created_at.toISOString(),
      });
      expect(row.hash).toBe(recomputed);
      prev = row.hash;
    }
  });

  it('resumes a chain from its numerically highest row when the head is not cached (seq 10 sorts after 9)', async () => {
    const existing: Array<[string, string]> = [
      ['0', 'parameters'],
      ['0', 'response'],
      ['1', 'parameters'],
      ['1', 'response'],
    ];
    for (const [i, [call, stage]] of existing.entries()) {
      const seq = 7 + i;
      await pool.query(
        `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash)
         VALUES ($1, $2, $3, $4, '{}', $5, $6)`,
        [`00000000-0000-4000-8000-00000000000${call}`, device, stage, seq, `h${seq - 1}`, `h${seq}`],
      );
    }
    // A fresh queue has no cached head, as after a restart or a partition takeover.
    const fresh = new CommitQueue(pool, 'replica-1', (p) => leases.get(p), {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    await fresh.submit(partition, (tx) =>
      tx.appendEvidence('00000000-0000-4000-8000-000000000002', device, [{ stage: 'effect', payload: {} }]),
    );
    const { rows } = await pool.query<{ seq: string; prev_hash: string }>(
      'SELECT seq::text AS seq, prev_hash FROM evidence WHERE device_id = $1 ORDER BY evidence.seq DESC LIMIT 1',
      [device],
    );
    expect(rows[0]).toEqual({ seq: '11', prev_hash: 'h10' });
  });

  it('chains onto the committed head when another transaction took the seq its cached head led to', async () => {
    const queue = new CommitQueue(pool, 'replica-1', (p) => leases.get(p), {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    const callId = '00000000-0000-4000-8000-00000000000a';
    await pool.query(
      `INSERT INTO call (id, device_id, partition, tool, arguments, origin, deadline_at) VALUES ($1, $2, $3, 't', '{}', 'operator', now())`,
      [callId, device, partition],
    );
    await queue.submit(partition, (tx) =>
      tx.appendEvidence(callId, device, [{ stage: 'parameters', payload: {} }]),
    );
    const head = await pool.query<{ seq: string; hash: string }>(
      'SELECT seq::text AS seq, hash FROM evidence WHERE device_id = $1 ORDER BY evidence.seq DESC LIMIT 1',
      [device],
    );
    const taken = BigInt(head.rows[0]!.seq) + 1n;
    // Another batch extends the chain behind this queue's back: its cached head is now one row short.
    await pool.query(
      `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash)
       VALUES ($1, $2, 'response', $3, '{}', $4, 'h-other')`,
      [callId, device, taken.toString(), head.rows[0]!.hash],
    );
    await queue.submit(partition, (tx) =>
      tx.appendEvidence(callId, device, [{ stage: 'effect', payload: {} }]),
    );
    const { rows } = await pool.query<{ seq: string; prev_hash: string }>(
      `SELECT seq::text AS seq, prev_hash FROM evidence WHERE call_id = $1 AND stage = 'effect'`,
      [callId],
    );
    expect(rows).toEqual([{ seq: (taken + 1n).toString(), prev_hash: 'h-other' }]);
  });

  it('refuses to write for a partition whose lease another replica has taken', async () => {
    const stale = new CommitQueue(pool, 'replica-1', (p) => leases.get(p), {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    await pool.query(`UPDATE service_lease SET expires_at = now() - interval '1 second' WHERE name = $1`, [
      partitionLeaseName(partition),
    ]);
    const other = new LeaseStore(pool, 'replica-2', 10_000);
    expect(await other.acquire(partitionLeaseName(partition))).toMatchObject({ token: '2' });
    const before = await pool.query('SELECT count(*)::int AS n FROM evidence');
    await expect(
      stale.submit(partition, (tx) =>
        tx.appendEvidence('00000000-0000-4000-8000-000000000000', device, [
          { stage: 'parameters', payload: {} },
        ]),
      ),
    ).rejects.toBeInstanceOf(LeaseLostError);
    const after = await pool.query('SELECT count(*)::int AS n FROM evidence');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it("lets the holder renew while a batch writes under its lease, and makes a takeover wait for the batch's commit", async () => {
    const name = partitionLeaseName(partition);
    await pool.query(`UPDATE service_lease SET expires_at = now() - interval '1 second' WHERE name = $1`, [
      name,
    ]);
    const holder = new LeaseStore(pool, 'replica-3', 10_000);
    const lease = (await holder.acquire(name))!;
    const queue = new CommitQueue(pool, 'replica-3', () => lease, {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    const callId = '00000000-0000-4000-8000-000000000009';
    await pool.query(
      `INSERT INTO call (id, device_id, partition, tool, arguments, origin, deadline_at) VALUES ($1, $2, $3, 't', '{}', 'operator', now())`,
      [callId, device, partition],
    );
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let entered!: () => void;
    const inBatch = new Promise<void>((resolve) => (entered = resolve));
    const write = queue.submit(partition, async (tx) => {
      entered();
      await gate; // the batch holds its lease lock until the test opens the gate
      await tx.appendEvidence(callId, device, [{ stage: 'parameters', payload: {} }]);
    });
    await inBatch;
    // With the batch still open: a renewal that waited for it would never return (the test would time out).
    expect(await holder.renew([lease])).toEqual(new Set([name]));

    await pool.query(`UPDATE service_lease SET expires_at = now() - interval '1 second' WHERE name = $1`, [
      name,
    ]);
    const order: string[] = [];
    const takeover = new LeaseStore(pool, 'replica-4', 10_000)
      .acquire(name)
      .then((taken) => (order.push('taken'), taken));
    await new Promise((resolve) => setTimeout(resolve, 200)); // room for a takeover that does not wait
    order.push('batch released');
    open();
    await write;
    expect(await takeover).toMatchObject({ name });
    expect(order).toEqual(['batch released', 'taken']);
  });

  it("writes a batch's evidence in one statement, and a unit whose rows cannot be written fails alone", async () => {
    const name = partitionLeaseName(partition);
    await pool.query(`UPDATE service_lease SET expires_at = now() - interval '1 second' WHERE name = $1`, [
      name,
    ]);
    const lease = (await new LeaseStore(pool, 'replica-5', 10_000).acquire(name))!;
    const queue = new CommitQueue(pool, 'replica-5', () => lease, {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    const good = '00000000-0000-4000-8000-000000000008';
    const unknown = '00000000-0000-4000-8000-0000000000ff'; // no such call: its rows break the foreign key
    await pool.query(
      `INSERT INTO call (id, device_id, partition, tool, arguments, origin, deadline_at) VALUES ($1, $2, $3, 't', '{}', 'operator', now())`,
      [good, device, partition],
    );
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = queue.submit(partition, () => gate); // holds the only batch slot, so the next two share a batch
    const bad = queue.submit(partition, (tx) =>
      tx.appendEvidence(unknown, device, [{ stage: 'effect', payload: { n: 1 } }]),
    );
    const fine = queue.submit(partition, (tx) =>
      tx.appendEvidence(good, device, [
        { stage: 'discovery', payload: { n: 2 } },
        { stage: 'effect', payload: { n: 3 } },
      ]),
    );
    open();
    await first;
    await expect(bad).rejects.toThrow(/foreign key/);
    await fine;
    const { rows } = await pool.query<{ call_id: string; n: number }>(
      'SELECT call_id, count(*)::int AS n FROM evidence WHERE call_id = ANY($1::uuid[]) GROUP BY call_id',
      [[good, unknown]],
    );
    expect(rows).toEqual([{ call_id: good, n: 2 }]);
  });

  it("chains a call's seal as a link of its own right after the rows committed with it", async () => {
    const name = partitionLeaseName(partition);
    await pool.query(`UPDATE service_lease SET expires_at = now() - interval '1 second' WHERE name = $1`, [
      name,
    ]);
    const lease = (await new LeaseStore(pool, 'replica-6', 10_000).acquire(name))!;
    const queue = new CommitQueue(pool, 'replica-6', () => lease, {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    const callId = '00000000-0000-4000-8000-00000000000b';
    await pool.query(
      `INSERT INTO call (id, device_id, partition, tool, arguments, origin, deadline_at) VALUES ($1, $2, $3, 't', '{}', 'operator', now())`,
      [callId, device, partition],
    );
    const sealedAt = new Date('2026-12-01T10:00:00.250Z');
    await queue.submit(partition, (tx) =>
      tx.appendEvidence(callId, device, [{ stage: 'effect', payload: { n: 1 } }], {
        verdict: 'verified',
        reason: 'read back 40',
        sealedAt,
      }),
    );
    const { rows } = await pool.query<{ stage: string; seq: string; payload: unknown; prev_hash: string }>(
      `SELECT stage, seq::text AS seq, payload, prev_hash FROM evidence WHERE call_id = $1 ORDER BY evidence.seq`,
      [callId],
    );
    expect(rows.map((r) => r.stage)).toEqual(['effect', 'seal']);
    expect(BigInt(rows[1]!.seq)).toBe(BigInt(rows[0]!.seq) + 1n);
    expect(rows[1]!.payload).toEqual({
      verdict: 'verified',
      reason: 'read back 40',
      sealedAt: sealedAt.toISOString(),
    });
  });
});

describe('chain heads', () => {
  it('are recorded once per device for the owned partitions, and only when the chain grew', async () => {
    const db = await createTestDatabase();
    const pool = new Pool({ connectionString: db.url, max: 2 });
    try {
      const device = 'a0:85:e3:00:00:08';
      await pool.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, 'uuid', now())`, [device]);
      await pool.query(
        `INSERT INTO call (id, device_id, partition, tool, arguments, origin, deadline_at) VALUES ('00000000-0000-4000-8000-000000000009', $1, $2, 't', '{}', 'operator', now())`,
        [device, partitionOf(device)],
      );
      await pool.query(
        `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash) VALUES
           ('00000000-0000-4000-8000-000000000009', $1, 'discovery', 1, '{}', $2, 'h1'),
           ('00000000-0000-4000-8000-000000000009', $1, 'decision', 2, '{}', 'h1', 'h2')`,
        [device, GENESIS_HASH],
      );
      const recorder = new ChainHeadRecorder(pool, () => [partitionOf(device)], createLogger('t', 'silent'));
      expect(await recorder.record()).toBe(1);
      expect(await recorder.record()).toBe(0);
      const { rows } = await pool.query('SELECT device_id, seq::int AS seq, hash FROM evidence_chain_head');
      expect(rows).toEqual([{ device_id: device, seq: 2, hash: 'h2' }]);
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
