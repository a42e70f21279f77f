import { Client } from 'pg';
import { createTestDatabase } from '@fleet/testing';
import { partitionEvidence } from './partition-evidence';

describe('db:partition-evidence on a table it may not or cannot convert', () => {
  it('leaves a plain table as it is when asked only to extend (the scheduled run)', async () => {
    const testDb = await createTestDatabase();
    const owner = new Client({ connectionString: testDb.ownerUrl });
    await owner.connect();
    try {
      await expect(partitionEvidence(owner, { extendOnly: true })).resolves.toEqual({
        layout: 'plain',
        converted: false,
        movedRows: 0,
        createdPartitions: [],
        partitions: [],
      });
      expect(
        await count(
          owner,
          `SELECT count(*)::int AS n FROM pg_class WHERE relname = 'evidence' AND relkind = 'r'`,
        ),
      ).toBe(1);
    } finally {
      await owner.end();
      await testDb.drop();
    }
  });

  it('stops, names the unknown index and leaves the plain table as it was', async () => {
    const testDb = await createTestDatabase();
    const owner = new Client({ connectionString: testDb.ownerUrl });
    await owner.connect();
    try {
      await owner.query('CREATE INDEX evidence_hash_idx ON evidence (hash)');
      await expect(partitionEvidence(owner)).rejects.toThrow(/indexes .*\(evidence_hash_idx\)/);
      expect(
        await count(
          owner,
          `SELECT count(*)::int AS n FROM pg_class WHERE relname = 'evidence' AND relkind = 'r'`,
        ),
      ).toBe(1);
      expect(
        await count(owner, `SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE 'evidence_2%'`),
      ).toBe(0);
    } finally {
      await owner.end();
      await testDb.drop();
    }
  });
});

async function count(client: Client, sql: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(sql);
  return rows[0]!.n;
}
