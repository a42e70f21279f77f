import { latencySummary } from './latency';

describe('latency percentiles', () => {
  it('are nearest-rank values that really happened, not interpolations', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100 ms, in reverse order
    values.reverse();
    expect(latencySummary(values)).toEqual({ count: 100, mean: 50.5, p50: 50, p95: 95, p99: 99, max: 100 });
    expect(latencySummary([7, 3])).toMatchObject({ p50: 3, p99: 7 });
  });

  it('are zero for no calls rather than undefined', () => {
    expect(latencySummary([])).toEqual({ count: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 });
  });
});
