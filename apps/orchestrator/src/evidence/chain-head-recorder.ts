import type { Pool } from '@fleet/db';
import { partitionSql } from '@fleet/domain';
import type { Logger } from '@fleet/telemetry';

/**
 * DESIGN §6: chain heads are recorded periodically where the application cannot rewrite them (insert-only table,
 * guarded by a trigger). A tampered row is then caught even if someone recomputes every hash after it: the
 * recorded head no longer matches.
 */
export class ChainHeadRecorder {
  private timer: NodeJS.Timeout | undefined;
  private since = new Date(0);

  constructor(
    private readonly pool: Pool,
    private readonly ownedPartitions: () => number[],
    private readonly logger: Logger,
    private readonly everyMs = 60_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.record(), this.everyMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.record();
  }

  async record(): Promise<number> {
    const partitions = this.ownedPartitions();
    if (partitions.length === 0) return 0;
    const started = new Date();
    try {
      const { rowCount } = await this.pool.query(
        `INSERT INTO evidence_chain_head (device_id, seq, hash)
         SELECT DISTINCT ON (e.device_id) e.device_id, e.seq, e.hash
           FROM evidence e
          WHERE e.created_at >= $1 AND ${partitionSql('e.device_id')} = ANY($2::int[])
            AND e.seq > coalesce((SELECT max(h.seq) FROM evidence_chain_head h WHERE h.device_id = e.device_id), 0)
          ORDER BY e.device_id, e.seq DESC`,
        [new Date(this.since.getTime() - 60_000), partitions],
      );
      this.since = started;
      return rowCount ?? 0;
    } catch (err) {
      this.logger.warn({ err }, 'cannot record evidence chain heads');
      return 0;
    }
  }
}
