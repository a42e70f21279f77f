import type { Verdict } from '@fleet/domain';
import type { DeviceGroupRow, VerdictBucketRow } from './fleet-summary.repository';
import type { FleetSummaryView } from './fleet-summary.schemas';

type Counted = { online: number; offline: number };

/** Pure: the overview's counts from the grouped rows (largest groups first, ties by name for a stable order). */
export function summarize(
  groups: DeviceGroupRow[],
  buckets: VerdictBucketRow[],
  window: { from: Date; to: Date; bucketS: number; at: Date },
): FleetSummaryView {
  const by = <K extends string>(key: (g: DeviceGroupRow) => string | null) => {
    const counts = new Map<string | null, Counted>();
    for (const g of groups) {
      const k = key(g);
      const c = counts.get(k) ?? { online: 0, offline: 0 };
      if (g.online) c.online += g.devices;
      else c.offline += g.devices;
      counts.set(k, c);
    }
    return [...counts]
      .sort(
        ([a, x], [b, y]) =>
          y.online + y.offline - (x.online + x.offline) || String(a).localeCompare(String(b)),
      )
      .map(([k, c]) => ({ k: k as K | null, ...c }));
  };
  const total = by(() => 'all')[0] ?? { online: 0, offline: 0 };
  const intervals: FleetSummaryView['calls']['buckets'] = [];
  for (let t = window.from.getTime(); t < window.to.getTime(); t += window.bucketS * 1000) {
    intervals.push({ start: new Date(t).toISOString(), byVerdict: {} });
  }
  const byVerdict: Partial<Record<Verdict, number>> = {};
  for (const b of buckets) {
    const v = b.verdict as Verdict;
    byVerdict[v] = (byVerdict[v] ?? 0) + b.calls;
    const i = Math.floor((b.start.getTime() - window.from.getTime()) / (window.bucketS * 1000));
    const interval = intervals[i];
    if (interval) interval.byVerdict[v] = (interval.byVerdict[v] ?? 0) + b.calls;
  }
  return {
    at: window.at.toISOString(),
    devices: { total: total.online + total.offline, online: total.online, offline: total.offline },
    byBoard: by((g) => g.board).map(({ k, ...c }) => ({ board: k, ...c })),
    byFirmware: by((g) => g.firmware).map(({ k, ...c }) => ({ firmware: k, ...c })),
    byDialect: by((g) => g.dialect).map(({ k, ...c }) => ({ dialect: k ?? 'xiaozhi', ...c })),
    calls: { from: window.from.toISOString(), to: window.to.toISOString(), byVerdict, buckets: intervals },
  };
}
