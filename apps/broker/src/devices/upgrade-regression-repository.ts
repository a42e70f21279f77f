import { sql, type Database } from '@fleet/db';
import type { Mac } from '@fleet/protocol';

export interface VerifiedUpgrade {
  callId: string;
  /** The registry version of the image the upgrade installed: what the device came back running. */
  reachedVersion: string;
  sealedAt: Date;
}

export interface RegressionRow {
  id: string;
  callId: string;
  deviceId: string;
  reachedVersion: string;
  reportedVersion: string;
  bootReportId: string | null;
  detectedAt: Date;
}

// The registry URL an upgrade call carries: …/firmware/<sha256>.bin (the broker serves the registry's images).
const SHA_OF_URL = sql<string>`substring(c.arguments->>'url' from '/firmware/([0-9a-f]{64})\\.bin$')`;

/** Upgrade regressions (DESIGN §5): read the upgrade a report may undo, record the regression once. */
export class UpgradeRegressionRepository {
  constructor(private readonly db: Database) {}

  /** The device's latest `verified` self.upgrade_firmware sealed before `before`, with the version it reached. */
  async latestVerifiedUpgrade(mac: Mac, before: Date): Promise<VerifiedUpgrade | undefined> {
    const row = await this.db
      .selectFrom('call as c')
      .innerJoin('firmware as f', (join) => join.on(sql<boolean>`f.sha256 = ${SHA_OF_URL}`))
      .select(['c.id', 'f.version', 'c.sealed_at'])
      .where('c.device_id', '=', mac)
      .where('c.tool', '=', 'self.upgrade_firmware')
      .where('c.verdict', '=', 'verified')
      .where('c.sealed_at', '<', before)
      .orderBy('c.sealed_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && row.sealed_at
      ? { callId: row.id, reachedVersion: row.version, sealedAt: row.sealed_at }
      : undefined;
  }

  /**
   * One row per upgrade, citing the device's latest boot report (the one just committed for this check-in);
   * undefined when this upgrade's regression was already recorded.
   */
  async record(input: {
    callId: string;
    mac: Mac;
    reachedVersion: string;
    reportedVersion: string;
    reportedOtaLabel: string | undefined;
  }): Promise<RegressionRow | undefined> {
    const row = await this.db
      .insertInto('upgrade_regression')
      .values({
        call_id: input.callId,
        device_id: input.mac,
        reached_version: input.reachedVersion,
        reported_version: input.reportedVersion,
        reported_ota_label: input.reportedOtaLabel ?? null,
        source: 'check_in',
        boot_report_id: (eb) =>
          eb
            .selectFrom('boot_report')
            .select('id')
            .where('device_id', '=', input.mac)
            .orderBy('received_at', 'desc')
            .orderBy('id', 'desc')
            .limit(1),
      })
      .onConflict((oc) => oc.column('call_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    return row
      ? {
          id: String(row.id),
          callId: row.call_id,
          deviceId: row.device_id,
          reachedVersion: row.reached_version,
          reportedVersion: row.reported_version,
          bootReportId: row.boot_report_id === null ? null : String(row.boot_report_id),
          detectedAt: row.detected_at,
        }
      : undefined;
  }
}
