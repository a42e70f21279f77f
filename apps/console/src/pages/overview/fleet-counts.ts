import type { FleetSummary } from '@fleet/api-contract';

export interface FleetCounts {
  online: number;
  offline: number;
  byBoard: { label: string; value: number }[];
  byFirmware: { label: string; value: number }[];
  byDialect: { label: string; value: number }[];
}

/** The overview's counts from the API's fleet summary (one request, whatever the fleet's size). */
export function fleetCounts(summary: FleetSummary, unknown: string): FleetCounts {
  const bars = <T extends { online: number; offline: number }>(rows: T[], label: (r: T) => string | null) =>
    merge(rows.map((r) => [label(r) ?? unknown, r.online + r.offline]));
  return {
    online: summary.devices.online,
    offline: summary.devices.offline,
    byBoard: bars(summary.byBoard, (r) => r.board),
    byFirmware: bars(summary.byFirmware, (r) => r.firmware),
    byDialect: bars(summary.byDialect, (r) => r.dialect),
  };
}

/** Sums counts by label, largest first (ties by label, so the order is stable between refreshes). */
export function merge(pairs: [string, number][]): { label: string; value: number }[] {
  const sums = new Map<string, number>();
  for (const [label, n] of pairs) sums.set(label, (sums.get(label) ?? 0) + n);
  return [...sums]
    .map(([label, value]) => ({ label, value }))
    .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
}
