import type { ReleaseHealthView } from '@fleet/api-contract';

type Health = NonNullable<ReleaseHealthView['baseline']>;

/** One line of the comparison: a signal of the release beside the same signal of the version it replaced. */
export interface ReleaseRow {
  signal:
    | 'devices'
    | 'device_hours'
    | 'upgrades'
    | 'effect_mismatch_share'
    | 'regressions'
    | 'reconnects_per_device_hour'
    | 'offline_share'
    | 'device_error_share'
    | 'no_response_share';
  release: string;
  baseline: string;
  /** A finding of the release's judgement is about this signal. */
  flagged: boolean;
}

const percent = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)} %`;
const number = (v: number | null | undefined, digits = 0) =>
  v === null || v === undefined ? '—' : v.toFixed(digits);

const READ: Record<ReleaseRow['signal'], (h: Health) => string> = {
  devices: (h) => number(h.devices),
  device_hours: (h) => number(h.deviceHours, 1),
  upgrades: (h) => (h.upgrades ? `${h.upgrades.verified} / ${h.upgrades.attempted}` : '—'),
  effect_mismatch_share: (h) => percent(h.upgrades?.effectMismatchShare),
  regressions: (h) => number(h.upgrades?.regressions),
  reconnects_per_device_hour: (h) => number(h.reconnectsPerDeviceHour, 2),
  offline_share: (h) => percent(h.offlineShare),
  device_error_share: (h) => percent(h.deviceErrorShare),
  no_response_share: (h) => percent(h.noResponseShare),
};

/** The release page's table: every signal, the release's value, the baseline's ('—' where there is none). */
export function releaseRows(view: ReleaseHealthView): ReleaseRow[] {
  const flagged = new Set<string>(view.findings.map((f) => f.signal));
  return (Object.keys(READ) as ReleaseRow['signal'][]).map((signal) => ({
    signal,
    release: READ[signal](view.release),
    baseline: view.baseline ? READ[signal](view.baseline) : '—',
    flagged: flagged.has(signal),
  }));
}
