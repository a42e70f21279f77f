import { round } from '../harness/report';

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Percentiles by the nearest-rank method (no interpolation: every figure is a latency that really happened). */
export function latencySummary(values: readonly number[]): LatencySummary {
  if (values.length === 0) return { count: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return {
    count: sorted.length,
    mean: round(sorted.reduce((sum, v) => sum + v, 0) / sorted.length),
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    max: round(sorted[sorted.length - 1]!),
  };
}

/** `p50 / p95 / p99 ms` for a summary table. */
export const percentiles = (s: LatencySummary) => `${s.p50} / ${s.p95} / ${s.p99}`;
