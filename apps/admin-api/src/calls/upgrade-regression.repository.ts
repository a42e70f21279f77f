import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

/** DESIGN §5: what the call page says when a verified upgrade was rolled back later. */
export interface RolledBackLater {
  reachedVersion: string;
  reportedVersion: string;
  reportedOtaLabel: string | null;
  /** The boot check-in that reported the older version. */
  bootReportId: string | null;
  detectedAt: string;
}

/** Reads the regression recorded against an upgrade call (the broker writes it; nobody changes it). */
@Injectable()
export class UpgradeRegressionRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async ofCall(callId: string): Promise<RolledBackLater | null> {
    const row = await this.db
      .selectFrom('upgrade_regression')
      .select(['reached_version', 'reported_version', 'reported_ota_label', 'boot_report_id', 'detected_at'])
      .where('call_id', '=', callId)
      .executeTakeFirst();
    return row
      ? {
          reachedVersion: row.reached_version,
          reportedVersion: row.reported_version,
          reportedOtaLabel: row.reported_ota_label,
          bootReportId: row.boot_report_id === null ? null : String(row.boot_report_id),
          detectedAt: row.detected_at.toISOString(),
        }
      : null;
  }
}
