import { releaseHealth, type VersionSignals } from './release-health';

const quiet = (version: string, over: Partial<VersionSignals> = {}): VersionSignals => ({
  version,
  devices: 20,
  deviceHours: 100,
  upgrades: { verified: 20, effectMismatch: 0, failed: 0 },
  regressions: 0,
  reconnects: 10,
  offlineHours: 1,
  calls: { total: 200, deviceError: 2, noResponse: 1 },
  ...over,
});

describe('release health', () => {
  it('calls a release healthy when it does as well as the version it replaced on the same boards', () => {
    const health = releaseHealth(quiet('2.5.0'), quiet('2.4.2'));
    expect(health).toMatchObject({ status: 'healthy', findings: [] });
    expect(health.release).toMatchObject({
      reconnectsPerDeviceHour: 0.1,
      offlineShare: 0.01,
      deviceErrorShare: 0.01,
      noResponseShare: 0.005,
      upgrades: { attempted: 20, effectMismatchShare: 0, regressionShare: 0 },
    });
    expect(health.baseline?.version).toBe('2.4.2');
  });

  it('degrades a release on its first regression, however few devices ran it', () => {
    const health = releaseHealth(quiet('2.5.0', { devices: 2, deviceHours: 0.1, regressions: 1 }), null);
    expect(health.status).toBe('degraded');
    expect(health.findings).toEqual([
      expect.objectContaining({
        signal: 'regressions',
        value: 1,
        detail: expect.stringContaining('older version'),
      }),
    ]);
  });

  it('degrades a release whose effect_mismatch share passes 2 %', () => {
    const health = releaseHealth(
      quiet('2.5.0', { upgrades: { verified: 45, effectMismatch: 3, failed: 2 } }),
      quiet('2.4.2'),
    );
    expect(health.status).toBe('degraded');
    expect(health.findings[0]).toMatchObject({ signal: 'effect_mismatch_share', value: 0.06 });
  });

  it('degrades a release that reconnects far more than its baseline, naming both numbers', () => {
    const health = releaseHealth(quiet('2.5.0', { reconnects: 300 }), quiet('2.4.2', { reconnects: 40 }));
    expect(health.status).toBe('degraded');
    expect(health.findings).toEqual([
      expect.objectContaining({
        signal: 'reconnects_per_device_hour',
        value: 3,
        baseline: 0.4,
        detail: '3.00 reconnects per device-hour against 0.40 reconnects per device-hour on 2.4.2',
      }),
    ]);
  });

  it('forgives a rate that rises but stays under its floor (0 → 0.2 reconnects an hour is not news)', () => {
    const health = releaseHealth(quiet('2.5.0', { reconnects: 20 }), quiet('2.4.2', { reconnects: 0 }));
    expect(health.status).toBe('healthy');
  });

  it('says insufficient_data while too few devices ran it, without judging the rates', () => {
    const health = releaseHealth(quiet('2.5.0', { devices: 2, reconnects: 900 }), quiet('2.4.2'));
    expect(health).toMatchObject({ status: 'insufficient_data', findings: [] });
  });

  it('leaves the upgrade shares out for a version that was never upgraded to', () => {
    const health = releaseHealth(quiet('2.4.2', { upgrades: null }), null);
    expect(health.release.upgrades).toBeNull();
    expect(health.status).toBe('healthy');
  });
});
