import type { Preview } from '../../api/types';

export interface FleetCounts {
  online: number;
  offline: number;
  byBoard: { label: string; value: number }[];
  byFirmware: { label: string; value: number }[];
}

/**
 * The fleet's counts from two previews (online, offline): the preview counts active devices matching a
 * selector, by board and firmware, so the two halves add up to the whole active fleet.
 */
export function fleetCounts(online: Preview, offline: Preview, unknown: string): FleetCounts {
  return {
    online: online.matched,
    offline: offline.matched,
    byBoard: merge([...online.byBoard, ...offline.byBoard].map((b) => [b.board ?? unknown, b.devices])),
    byFirmware: merge(
      [...online.byFirmware, ...offline.byFirmware].map((f) => [f.firmware ?? unknown, f.devices]),
    ),
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
