import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, sql, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface DeviceGroupRow {
  board: string | null;
  firmware: string | null;
  dialect: string;
  online: boolean;
  devices: number;
}

export interface VerdictBucketRow {
  start: Date;
  verdict: string;
  calls: number;
}

/**
 * Two aggregate queries for the overview: active devices grouped by what the breakdowns need (a few dozen
 * groups even at 10,000 devices), and sealed calls by verdict per interval over the window (the call table's
 * created_at index bounds it: a call is sealed within its deadline of being created).
 */
@Injectable()
export class FleetSummaryRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async deviceGroups(): Promise<DeviceGroupRow[]> {
    const rows = await this.db
      .selectFrom('device')
      .select([
        'board',
        'firmware_version as firmware',
        'dialect',
        'online',
        (eb) => eb.fn.countAll<number>().as('devices'),
      ])
      .where('status', '=', 'active')
      .groupBy(['board', 'firmware_version', 'dialect', 'online'])
      .execute();
    return rows.map((r) => ({ ...r, devices: Number(r.devices) }));
  }

  async verdictBuckets(from: Date, bucketS: number): Promise<VerdictBucketRow[]> {
    const start = sql<Date>`date_bin(make_interval(secs => ${bucketS}), sealed_at, ${from}::timestamptz)`;
    const rows = await this.db
      .selectFrom('call')
      .select([start.as('start'), 'verdict', (eb) => eb.fn.countAll<number>().as('calls')])
      .where('created_at', '>=', sql<Date>`${from}::timestamptz - interval '1 day'`)
      .where('sealed_at', '>=', from)
      .where('verdict', 'is not', null)
      // By position: the same expression repeated would carry its parameters twice, which Postgres does not
      // recognise as the grouped expression.
      .groupBy([sql`1`, sql`2`])
      .execute();
    return rows.map((r) => ({ start: r.start, verdict: r.verdict!, calls: Number(r.calls) }));
  }
}
