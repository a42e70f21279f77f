import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, sql, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

/** Takeovers across the fleet: connection rows closed as `takeover` (index (close_reason, closed_at)). */
@Injectable()
export class TakeoversRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  /** How many devices were taken over more than `threshold` times in the last hour. */
  async devicesTakenOverMoreThan(threshold: number): Promise<number> {
    const row = await this.db
      .selectFrom((q) =>
        q
          .selectFrom('connection')
          .select('device_id')
          .where('close_reason', '=', 'takeover')
          .where('closed_at', '>', sql<Date>`now() - interval '1 hour'`)
          .groupBy('device_id')
          .having((h) => h.fn.countAll(), '>', threshold)
          .as('fought'),
      )
      .select((s) => s.fn.countAll<string>().as('devices'))
      .executeTakeFirstOrThrow();
    return Number(row.devices);
  }
}
