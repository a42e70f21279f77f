import { mayRevealRegression, regressesFrom, type Mac } from '@fleet/protocol';
import type { Logger } from '@fleet/telemetry';
import type { UpgradeRegressionRepository } from './upgrade-regression-repository';

export interface VersionReport {
  mac: Mac;
  /** What the device row said it ran before this report. */
  previousVersion: string | null | undefined;
  reportedVersion: string | undefined;
  reportedOtaLabel: string | undefined;
  at: Date;
}

export interface RegressionNotices {
  notify(event: 'upgrade.regressed', payload: Record<string, unknown>): Promise<unknown>;
}

export type RegressionOutcome =
  'not_lower' | 'no_verified_upgrade' | 'not_a_regression' | 'recorded' | 'known' | 'failed';

/**
 * The one place where a reported version is held against the upgrades verified before it (DESIGN §5). Versions
 * arrive at the boot check-in (xiaozhi §4.2 application.version, also what MCP initialize reports after the
 * connect); a report no lower than the device's previous version is let through without a query.
 */
export class UpgradeRegressionWatch {
  constructor(
    private readonly repository: UpgradeRegressionRepository,
    private readonly notices: RegressionNotices,
    private readonly logger: Logger,
    private readonly counted: (outcome: RegressionOutcome) => void = () => undefined,
  ) {}

  /** Never throws: a check-in is answered whatever happens here, and a failure is logged and counted. */
  async seen(report: VersionReport): Promise<RegressionOutcome> {
    const outcome = await this.check(report).catch((err: unknown) => {
      this.logger.warn({ err, mac: report.mac }, 'cannot check the report for an upgrade regression');
      return 'failed' as const;
    });
    this.counted(outcome);
    return outcome;
  }

  private async check(report: VersionReport): Promise<RegressionOutcome> {
    const { mac, reportedVersion } = report;
    if (!mayRevealRegression(report.previousVersion, reportedVersion) || reportedVersion === undefined)
      return 'not_lower';
    const upgrade = await this.repository.latestVerifiedUpgrade(mac, report.at);
    if (!upgrade) return 'no_verified_upgrade';
    if (!regressesFrom(upgrade.reachedVersion, reportedVersion)) return 'not_a_regression';
    const row = await this.repository.record({
      callId: upgrade.callId,
      mac,
      reachedVersion: upgrade.reachedVersion,
      reportedVersion,
      reportedOtaLabel: report.reportedOtaLabel,
    });
    if (!row) return 'known';
    this.logger.warn(
      { mac, callId: upgrade.callId, reached: upgrade.reachedVersion, reported: reportedVersion },
      'a device came back older than a verified upgrade left it',
    );
    await this.notices
      .notify('upgrade.regressed', {
        callId: row.callId,
        deviceId: mac,
        reachedVersion: row.reachedVersion,
        reportedVersion: row.reportedVersion,
        bootReportId: row.bootReportId,
        detectedAt: row.detectedAt.toISOString(),
      })
      .catch((err: unknown) => this.logger.warn({ err, mac }, 'cannot queue the regression webhook'));
    return 'recorded';
  }
}
