import { evidenceHash, GENESIS_HASH, partitionOf, SEAL_LINK } from '@fleet/domain';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createDatabase, type Database } from '../../client/kysely';
import { createPgPool, type Pool } from '../../client/pg-pool';
import { CommitQueue } from './commit-queue';

describe('the evidence writer of @fleet/db', () => {
  let testDb: TestDatabase;
  let pool: Pool;
  let db: Database;
  const device = 'a0:85:e3:00:01:01';
  const callId = '00000000-0000-4000-8000-000000000101';
  const lease = { name: 'test-lease', token: '1' };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    pool = createPgPool(testDb.url, { max: 3 });
    db = createDatabase(pool);
    await db.insertInto('device').values({ id: device, client_id: 'hash', updated_at: new Date() }).execute();
    await db
      .insertInto('call')
      .values({
        id: callId,
        device_id: device,
        partition: partitionOf(device),
        tool: 't',
        arguments: '{}',
        origin: 'operator',
        deadline_at: new Date(),
      })
      .execute();
    await db
      .insertInto('service_lease')
      .values({ ...lease, holder: 'writer-1', expires_at: new Date(Date.now() + 60_000) })
      .execute();
  });
  afterAll(async () => {
    await pool.end();
    await testDb.drop();
  });

  it('writes a unit’s Kysely statements and its evidence in one transaction: a unit that throws leaves neither', async () => {
    const queue = new CommitQueue(pool, 'writer-1', () => lease, {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    await expect(
      queue.submit(partitionOf(device), async (tx) => {
        await tx.db.updateTable('call').set({ state: 'sent' }).where('id', '=', callId).execute();
        await tx.appendEvidence(callId, device, [{ stage: 'decision', payload: { n: 1 } }]);
        throw new Error('the unit fails after writing');
      }),
    ).rejects.toThrow('the unit fails after writing');
    const call = await db
      .selectFrom('call')
      .select('state')
      .where('id', '=', callId)
      .executeTakeFirstOrThrow();
    const rows = await db.selectFrom('evidence').select('seq').where('device_id', '=', device).execute();
    expect({ state: call.state, rows: rows.length }).toEqual({ state: 'queued', rows: 0 });
  });

  it('chains the rows then the seal as its own last link, each hashed onto the one before', async () => {
    const queue = new CommitQueue(pool, 'writer-1', () => lease, {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    const sealedAt = new Date('2026-12-02T00:00:00.000Z');
    await queue.submit(partitionOf(device), (tx) =>
      tx.appendEvidence(callId, device, [{ stage: 'decision', payload: { n: 1 } }], {
        verdict: 'verified',
        reason: 'read back',
        sealedAt,
      }),
    );
    const rows = await db
      .selectFrom('evidence')
      .select(['stage', 'seq', 'payload', 'prev_hash', 'hash', 'created_at'])
      .where('device_id', '=', device)
      .orderBy('seq')
      .execute();
    expect(rows.map((r) => [r.stage, r.seq])).toEqual([
      ['decision', '1'],
      [SEAL_LINK, '2'],
    ]);
    expect(rows[1]!.payload).toEqual({
      verdict: 'verified',
      reason: 'read back',
      sealedAt: sealedAt.toISOString(),
    });
    let prev = GENESIS_HASH;
    for (const r of rows) {
      const fields = { callId, deviceId: device, stage: r.stage, seq: BigInt(r.seq), payload: r.payload };
      expect(r.prev_hash).toBe(prev);
      expect(r.hash).toBe(evidenceHash(prev, { ...fields, createdAt: r.created_at.toISOString() }));
      prev = r.hash;
    }
  });

  it('fences on a lease whose holder and name hold quotes, as values, and writes nothing under a token that is not an integer', async () => {
    const quoted = { name: "lease 'q'\\", token: '7' };
    const holder = "writer'); DROP TABLE evidence; --";
    await db
      .insertInto('service_lease')
      .values({ ...quoted, holder, expires_at: new Date(Date.now() + 60_000) })
      .execute();
    const owner = new CommitQueue(pool, holder, () => quoted, { maxConcurrentBatches: 1, maxBatchSize: 10 });
    await expect(owner.submit(partitionOf(device), () => Promise.resolve('written'))).resolves.toBe(
      'written',
    );
    const stranger = new CommitQueue(pool, 'writer-1', () => quoted, {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    await expect(stranger.submit(partitionOf(device), () => Promise.resolve('written'))).rejects.toThrow(
      /no longer owned/,
    );
    const forged = new CommitQueue(pool, holder, () => ({ ...quoted, token: '7 OR true' }), {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    await expect(forged.submit(partitionOf(device), () => Promise.resolve('written'))).rejects.toThrow(
      /bigint/,
    );
    expect(
      await db.selectFrom('evidence').select('seq').where('device_id', '=', device).execute(),
    ).toHaveLength(2);
  });

  it('stores a payload with quotes, backslashes and a statement in it as the value it was hashed from', async () => {
    const queue = new CommitQueue(pool, 'writer-1', () => lease, {
      maxConcurrentBatches: 1,
      maxBatchSize: 10,
    });
    const payload = { text: `it's a "quote" \\ '); DELETE FROM evidence; COMMIT; --`, other: 'é ✓ \n' };
    await queue.submit(partitionOf(device), (tx) =>
      tx.appendEvidence(callId, device, [{ stage: 'effect', payload }]),
    );
    const rows = await db
      .selectFrom('evidence')
      .select(['seq', 'payload', 'prev_hash', 'hash', 'created_at'])
      .where('device_id', '=', device)
      .orderBy('seq')
      .execute();
    const last = rows.at(-1)!;
    expect(rows).toHaveLength(3);
    expect(last.payload).toEqual(payload);
    const fields = {
      callId,
      deviceId: device,
      stage: 'effect' as const,
      seq: BigInt(last.seq),
      payload: last.payload,
    };
    expect(last.hash).toBe(
      evidenceHash(rows.at(-2)!.hash, { ...fields, createdAt: last.created_at.toISOString() }),
    );
  });
});
