import { sql, type Database } from '@fleet/db';
import { partitionSql } from '@fleet/domain';

/** `evidence_chain_head`: the insert-only record of each device's chain head (DESIGN §6). */
export class ChainHeadRepository {
  constructor(private readonly db: Database) {}

  /**
   * Records the head of every chain of these partitions that grew since `since`; returns how many. One statement,
   * however many devices: DISTINCT ON picks each device's last link.
   */
  async recordGrownSince(since: Date, partitions: readonly number[]): Promise<number> {
    const { numAffectedRows } = await sql`
      INSERT INTO evidence_chain_head (device_id, seq, hash)
      SELECT DISTINCT ON (e.device_id) e.device_id, e.seq, e.hash
        FROM evidence e
       WHERE e.created_at >= ${since} AND ${sql.raw(partitionSql('e.device_id'))} = ANY(${[...partitions]}::int[])
         AND e.seq > coalesce((SELECT max(h.seq) FROM evidence_chain_head h WHERE h.device_id = e.device_id), 0)
       ORDER BY e.device_id, e.seq DESC`.execute(this.db);
    return Number(numAffectedRows ?? 0n);
  }
}
