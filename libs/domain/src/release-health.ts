// Release health (DESIGN §5): how a firmware version fares on the fleet, from what the platform itself observed
// (verified versions, rollbacks after a later reboot, connections, call verdicts), never from what a device says
// of itself. A version is judged against the one it replaced on the same boards, so a board that is always flaky
// does not make every release on it look bad.

/** What the platform counted for one version on some boards over a window (the repository's answer). */
export interface VersionSignals {
  version: string;
  devices: number;
  deviceHours: number;
  /** Upgrades to this version, by how they ended (null: the version is not in the registry, none were made). */
  upgrades: { verified: number; effectMismatch: number; failed: number } | null;
  /** Verified upgrades to it that a device later came back from on an older version, within the window. */
  regressions: number;
  /** Connections after the first one of each boot, while running it. */
  reconnects: number;
  offlineHours: number;
  calls: { total: number; deviceError: number; noResponse: number };
}

export interface VersionHealth {
  version: string;
  devices: number;
  deviceHours: number;
  upgrades: {
    attempted: number;
    verified: number;
    effectMismatch: number;
    failed: number;
    regressions: number;
    effectMismatchShare: number | null;
    regressionShare: number | null;
  } | null;
  reconnectsPerDeviceHour: number | null;
  /** Share of its device-hours spent offline (0..1). */
  offlineShare: number | null;
  deviceErrorShare: number | null;
  noResponseShare: number | null;
  calls: number;
}

export type HealthSignal =
  | 'effect_mismatch_share'
  | 'regressions'
  | 'reconnects_per_device_hour'
  | 'offline_share'
  | 'device_error_share'
  | 'no_response_share';

export interface HealthFinding {
  signal: HealthSignal;
  value: number;
  baseline: number | null;
  detail: string;
}

export interface ReleaseHealth {
  release: VersionHealth;
  /** The version it replaced on the same boards (null: none seen). */
  baseline: VersionHealth | null;
  /** `insufficient_data` until enough devices ran it for long enough to say anything. */
  status: 'healthy' | 'degraded' | 'insufficient_data';
  findings: HealthFinding[];
}

/** When a release counts as degraded; a gate may be stricter. */
export interface HealthThresholds {
  /** Below these, the numbers say nothing yet. */
  minDevices: number;
  minDeviceHours: number;
  maxEffectMismatchShare: number;
  maxRegressions: number;
  /** A rate may be at most this many times the baseline's (and above `floor`, so 0 → 0.01 is not a 'regression'). */
  maxRatioToBaseline: number;
  floors: { reconnectsPerDeviceHour: number; offlineShare: number; callShare: number };
}

export const DEFAULT_HEALTH_THRESHOLDS: HealthThresholds = {
  minDevices: 5,
  minDeviceHours: 1,
  maxEffectMismatchShare: 0.02,
  maxRegressions: 0,
  maxRatioToBaseline: 2,
  floors: { reconnectsPerDeviceHour: 0.5, offlineShare: 0.05, callShare: 0.02 },
};

const share = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

export function versionHealth(s: VersionSignals): VersionHealth {
  const attempted = s.upgrades ? s.upgrades.verified + s.upgrades.effectMismatch + s.upgrades.failed : 0;
  return {
    version: s.version,
    devices: s.devices,
    deviceHours: s.deviceHours,
    upgrades: s.upgrades
      ? {
          attempted,
          ...s.upgrades,
          regressions: s.regressions,
          effectMismatchShare: share(s.upgrades.effectMismatch, attempted),
          regressionShare: share(s.regressions, s.upgrades.verified),
        }
      : null,
    reconnectsPerDeviceHour: share(s.reconnects, s.deviceHours),
    offlineShare: s.deviceHours > 0 ? Math.min(1, s.offlineHours / s.deviceHours) : null,
    deviceErrorShare: share(s.calls.deviceError, s.calls.total),
    noResponseShare: share(s.calls.noResponse, s.calls.total),
    calls: s.calls.total,
  };
}

/** Judges a release against its baseline: every finding names the signal, its value and what it was compared to. */
export function releaseHealth(
  release: VersionSignals,
  baseline: VersionSignals | null,
  t: HealthThresholds = DEFAULT_HEALTH_THRESHOLDS,
): ReleaseHealth {
  const r = versionHealth(release);
  const b = baseline ? versionHealth(baseline) : null;
  const findings: HealthFinding[] = [];
  // Absolute limits first: a rollback or a wrong version after "success" is bad whatever the baseline did.
  if (r.upgrades && r.upgrades.regressions > t.maxRegressions)
    findings.push({
      signal: 'regressions',
      value: r.upgrades.regressions,
      baseline: b?.upgrades?.regressions ?? null,
      detail: `${r.upgrades.regressions} verified upgrade(s) later came back on an older version`,
    });
  if (r.upgrades?.effectMismatchShare != null && r.upgrades.effectMismatchShare > t.maxEffectMismatchShare)
    findings.push({
      signal: 'effect_mismatch_share',
      value: r.upgrades.effectMismatchShare,
      baseline: b?.upgrades?.effectMismatchShare ?? null,
      detail: `${pct(r.upgrades.effectMismatchShare)} of upgrades ended effect_mismatch (limit ${pct(t.maxEffectMismatchShare)})`,
    });
  const compared: [HealthSignal, number | null, number | null, number, (v: number) => string][] = [
    [
      'reconnects_per_device_hour',
      r.reconnectsPerDeviceHour,
      b?.reconnectsPerDeviceHour ?? null,
      t.floors.reconnectsPerDeviceHour,
      (v) => `${v.toFixed(2)} reconnects per device-hour`,
    ],
    [
      'offline_share',
      r.offlineShare,
      b?.offlineShare ?? null,
      t.floors.offlineShare,
      (v) => `${pct(v)} of the time offline`,
    ],
    [
      'device_error_share',
      r.deviceErrorShare,
      b?.deviceErrorShare ?? null,
      t.floors.callShare,
      (v) => `${pct(v)} of calls device_error`,
    ],
    [
      'no_response_share',
      r.noResponseShare,
      b?.noResponseShare ?? null,
      t.floors.callShare,
      (v) => `${pct(v)} of calls no_response`,
    ],
  ];
  for (const [signal, value, base, floor, say] of compared) {
    if (value === null || value <= floor) continue;
    if (base !== null && value <= base * t.maxRatioToBaseline) continue;
    findings.push({
      signal,
      value,
      baseline: base,
      detail:
        base === null
          ? `${say(value)}, with no baseline to compare`
          : `${say(value)} against ${say(base)} on ${b!.version}`,
    });
  }
  const enough = r.devices >= t.minDevices && r.deviceHours >= t.minDeviceHours;
  // A regression or a wrong version is a fact from the first device; the rates need numbers behind them.
  const hard = findings.some((f) => HARD_SIGNALS.has(f.signal));
  return {
    release: r,
    baseline: b,
    status: hard || (enough && findings.length > 0) ? 'degraded' : enough ? 'healthy' : 'insufficient_data',
    findings: enough ? findings : findings.filter((f) => HARD_SIGNALS.has(f.signal)),
  };
}

const HARD_SIGNALS = new Set<HealthSignal>(['regressions', 'effect_mismatch_share']);

function pct(v: number): string {
  return `${(v * 100).toFixed(1)} %`;
}
