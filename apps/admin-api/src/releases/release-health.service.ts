import { Injectable } from '@nestjs/common';
import type { ReleaseHealthView } from '@fleet/api-contract';
import { releaseHealth, type ReleaseHealth } from '@fleet/domain';
import { notFound } from '../http/api-error';
import { ReleaseHealthRepository } from './release-health.repository';

export interface HealthWindow {
  windowHours: number;
  regressionWithinHours: number;
}

/** A release judged against the version it replaced on the same boards (libs/domain release-health). */
@Injectable()
export class ReleaseHealthService {
  constructor(private readonly releases: ReleaseHealthRepository) {}

  async ofFirmware(firmwareId: string, w: HealthWindow): Promise<ReleaseHealthView> {
    const version = await this.releases.versionOf(firmwareId);
    if (!version) throw notFound('firmware', firmwareId);
    const { health, boards, window } = await this.ofVersion(version, w);
    return {
      firmwareId,
      window: {
        since: window.since.toISOString(),
        until: window.until.toISOString(),
        regressionWithinHours: window.regressionWithinHours,
      },
      boards,
      ...health,
    };
  }

  async ofVersion(version: string, w: HealthWindow, now = new Date()) {
    const window = {
      since: new Date(now.getTime() - w.windowHours * 3600_000),
      until: now,
      regressionWithinHours: w.regressionWithinHours,
    };
    const { baseline, boards } = await this.releases.replaced(version, window);
    const [release, before] = await Promise.all([
      this.releases.signals(version, boards, window),
      baseline ? this.releases.signals(baseline, boards, window) : Promise.resolve(null),
    ]);
    const health: ReleaseHealth = releaseHealth(release, before);
    return { health, boards, window };
  }
}
