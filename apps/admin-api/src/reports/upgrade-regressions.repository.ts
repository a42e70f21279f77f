import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, sql, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';
import type { Period } from './audit-report.repository';

export interface RegressionLine {
  callId: string;
  deviceId: string;
  reachedVersion: string;
  reportedVersion: string;
  detectedAt: Date;
}

/**
 * DESIGN §5 in the audit report: the period's verified upgrades that a device later came back from on an older
 * version (the regression may be found after the period; the upgrade call is what the period holds).
 */
@Injectable()
export class UpgradeRegressionsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async ofPeriod(p: Period, limit: number): Promise<{ total: number; items: RegressionLine[] }> {
    const rows = await this.db
      .selectFrom('upgrade_regression as r')
      .innerJoin('call as c', 'c.id', 'r.call_id')
      .innerJoin('device as d', 'd.id', 'r.device_id')
      .select([
        'r.call_id',
        'r.device_id',
        'r.reached_version',
        'r.reported_version',
        'r.detected_at',
        sql<number>`count(*) OVER ()::int`.as('total'),
      ])
      .where('c.created_at', '>=', p.from)
      .where('c.created_at', '<', p.to)
      .$if(p.dialect !== undefined, (q) => q.where('d.dialect', '=', p.dialect!))
      .orderBy('c.created_at')
      .orderBy('c.id')
      .limit(limit)
      .execute();
    return {
      total: rows[0]?.total ?? 0,
      items: rows.map((r) => ({
        callId: r.call_id,
        deviceId: r.device_id,
        reachedVersion: r.reached_version,
        reportedVersion: r.reported_version,
        detectedAt: r.detected_at,
      })),
    };
  }

  /** For the ledger: the regression of each of these calls that has one. */
  async ofCalls(callIds: string[]): Promise<Map<string, RegressionLine>> {
    if (callIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('upgrade_regression')
      .select(['call_id', 'device_id', 'reached_version', 'reported_version', 'detected_at'])
      .where('call_id', 'in', callIds)
      .execute();
    return new Map(
      rows.map((r) => [
        r.call_id,
        {
          callId: r.call_id,
          deviceId: r.device_id,
          reachedVersion: r.reached_version,
          reportedVersion: r.reported_version,
          detectedAt: r.detected_at,
        },
      ]),
    );
  }
}
