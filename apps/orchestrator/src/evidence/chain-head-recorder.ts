import { createDatabase, type Pool } from '@fleet/db';
import type { Logger } from '@fleet/telemetry';
import { ChainHeadRepository } from './chain-head.repository';

/**
 * DESIGN §6: chain heads are recorded periodically where the application cannot rewrite them (insert-only table,
 * guarded by a trigger). A tampered row is then caught even if someone recomputes every hash after it: the
 * recorded head no longer matches.
 */
export class ChainHeadRecorder {
  private timer: NodeJS.Timeout | undefined;
  private since = new Date(0);
  private readonly heads: ChainHeadRepository;

  constructor(
    pool: Pool,
    private readonly ownedPartitions: () => number[],
    private readonly logger: Logger,
    private readonly everyMs = 60_000,
  ) {
    this.heads = new ChainHeadRepository(createDatabase(pool));
  }

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
      // A minute of overlap: a batch that committed late still had rows created before the last run.
      const recorded = await this.heads.recordGrownSince(new Date(this.since.getTime() - 60_000), partitions);
      this.since = started;
      return recorded;
    } catch (err) {
      this.logger.warn({ err }, 'cannot record evidence chain heads');
      return 0;
    }
  }
}
