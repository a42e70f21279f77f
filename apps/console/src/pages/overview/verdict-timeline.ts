import type { Verdict } from '@fleet/api-contract';

export interface Bucket {
  /** Start of the interval, ms since the epoch. */
  start: number;
  counts: Partial<Record<Verdict, number>>;
}

/** `count` consecutive intervals of `sizeMs`, the last one containing `now` (aligned to the size). */
export function emptyBuckets(now: number, sizeMs: number, count: number): Bucket[] {
  const last = Math.floor(now / sizeMs) * sizeMs;
  return Array.from({ length: count }, (_, i) => ({ start: last - (count - 1 - i) * sizeMs, counts: {} }));
}

/** One more call with this verdict at `at`; calls outside the window are not counted. */
export function addCall(buckets: Bucket[], sizeMs: number, at: number, verdict: Verdict): Bucket[] {
  return buckets.map((b) =>
    at >= b.start && at < b.start + sizeMs
      ? { ...b, counts: { ...b.counts, [verdict]: (b.counts[verdict] ?? 0) + 1 } }
      : b,
  );
}

/** Moves the window so its last interval contains `now`, keeping the counts of intervals still inside. */
export function roll(buckets: Bucket[], now: number, sizeMs: number): Bucket[] {
  const kept = new Map(buckets.map((b) => [b.start, b.counts]));
  return emptyBuckets(now, sizeMs, buckets.length).map((b) => ({ ...b, counts: kept.get(b.start) ?? {} }));
}
