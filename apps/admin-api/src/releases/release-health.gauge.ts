import { Inject, Injectable } from '@nestjs/common';
import type { ReleaseHealth, VersionHealth } from '@fleet/domain';
import { Gauge, type Logger, type Registry } from '@fleet/telemetry';
import { LOGGER, METRICS_REGISTRY } from '../infra/tokens';
import { ReleaseHealthRepository } from './release-health.repository';
import { ReleaseHealthService } from './release-health.service';

/** The versions a scrape reports on (the most device-hours in the window): a bounded label set. */
const VERSIONS = 10;
/** The signals are read at most this often, however often Prometheus scrapes. */
const REFRESH_MS = 60_000;
const WINDOW = { windowHours: 24, regressionWithinHours: 24 };

type Signal = (h: VersionHealth) => number | null | undefined;
const SIGNALS: Record<string, Signal> = {
  effect_mismatch_share: (h) => h.upgrades?.effectMismatchShare,
  regressions: (h) => h.upgrades?.regressions,
  reconnects_per_device_hour: (h) => h.reconnectsPerDeviceHour,
  offline_share: (h) => h.offlineShare,
  device_error_share: (h) => h.deviceErrorShare,
  no_response_share: (h) => h.noResponseShare,
  devices: (h) => h.devices,
  device_hours: (h) => h.deviceHours,
};

/**
 * Release health as metrics (deploy/prometheus/alerts.yaml alerts on them): `admin_api_release_health` per
 * version and signal over the last day, `admin_api_release_baseline` the same signal of the version it replaced
 * on the same boards, `admin_api_release_degraded` 1 when the release's own judgement says so.
 */
@Injectable()
export class ReleaseHealthGauge {
  private snapshot: ReleaseHealth[] = [];
  private readAt = 0;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly releases: ReleaseHealthRepository,
    private readonly health: ReleaseHealthService,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    const fresh = () => this.fresh();
    new Gauge({
      name: 'admin_api_release_health',
      help: 'A firmware version over the last day, by signal (shares 0..1, reconnects per device-hour, regressions, devices, device_hours)',
      labelNames: ['version', 'signal'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const h of await fresh()) setSignals(this, h.release);
      },
    });
    new Gauge({
      name: 'admin_api_release_baseline',
      help: 'The same signals of the version each release replaced on the same boards (labelled with the release)',
      labelNames: ['version', 'signal'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const h of await fresh()) if (h.baseline) setSignals(this, h.baseline, h.release.version);
      },
    });
    new Gauge({
      name: 'admin_api_release_degraded',
      help: 'A firmware version whose release health is degraded (1) or not (0)',
      labelNames: ['version'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const h of await fresh())
          this.set({ version: h.release.version }, h.status === 'degraded' ? 1 : 0);
      },
    });
  }

  /** The last reading, read again when older than REFRESH_MS (one read shared by the three gauges of a scrape). */
  private async fresh(): Promise<ReleaseHealth[]> {
    if (Date.now() - this.readAt > REFRESH_MS) {
      this.reading ??= this.read().finally(() => (this.reading = undefined));
      await this.reading;
    }
    return this.snapshot;
  }

  private async read(): Promise<void> {
    try {
      const now = new Date();
      const window = {
        since: new Date(now.getTime() - WINDOW.windowHours * 3600_000),
        until: now,
        regressionWithinHours: WINDOW.regressionWithinHours,
      };
      const versions = await this.releases.active(window, VERSIONS);
      const read: ReleaseHealth[] = [];
      for (const version of versions) read.push((await this.health.ofVersion(version, WINDOW, now)).health);
      this.snapshot = read;
      this.readAt = Date.now();
    } catch (err) {
      // Postgres unreachable: the last values stand; fleet_dependency_up says why.
      this.logger.warn({ err }, 'could not read release health');
    }
  }
}

function setSignals(gauge: Gauge<'version' | 'signal'>, h: VersionHealth, version = h.version): void {
  for (const [signal, read] of Object.entries(SIGNALS)) {
    const value = read(h);
    if (value !== null && value !== undefined) gauge.set({ version, signal }, value);
  }
}
