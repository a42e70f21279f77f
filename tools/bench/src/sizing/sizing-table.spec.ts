import { sizingTable, type SizingRow } from './sizing-table';

const row = (devices: number): SizingRow => ({
  devices,
  discoveredSeconds: 4.2,
  cpuMsPerDevice: { broker: 2.5, orchestrator: 1.5, api: 0.1, postgres: 3, redis: 0.05 },
  rssPerDevice: { broker: 10_240, orchestrator: 5_120, api: 0 },
  heapPerDevice: { broker: 8_192, orchestrator: 4_096 },
  databaseBytes: { discovered: 20 * 2 ** 20, afterCalls: 30 * 2 ** 20 },
  readsPerSecond: 1_500,
  verifiedSetVolumePerSecond: 1_200,
  lone: { count: 200, mean: 5, p50: 4.5, p95: 9, p99: 12, max: 20 },
  firstLimit: 'cpu',
});

describe('sizingTable', () => {
  it('puts one column per fleet size and one row per figure', () => {
    const lines = sizingTable([row(1000), row(5000)]);
    expect(lines[0]).toBe('| devices | 1,000 | 5,000 |');
    expect(lines[1]).toBe('|---|---|---|');
    expect(lines).toContain(
      '| RSS KB per device after GC: broker / orchestrator / API | 10.0 / 5.0 / 0.0 | 10.0 / 5.0 / 0.0 |',
    );
    expect(lines).toContain(
      '| Postgres database: discovered / after the calls | 20 MB / 30 MB | 20 MB / 30 MB |',
    );
    expect(lines[lines.length - 1]).toBe('| first resource to run out | cpu | cpu |');
  });
});
