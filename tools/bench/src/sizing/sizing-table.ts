import type { LatencySummary } from '../platform/latency';

/** The figures of one step that the table shows (a subset of SizingStep, so the table is testable alone). */
export interface SizingRow {
  devices: number;
  discoveredSeconds: number;
  cpuMsPerDevice: Record<string, number>;
  rssPerDevice: Record<string, number>;
  heapPerDevice: Record<string, number>;
  databaseBytes: { discovered: number; afterCalls: number };
  readsPerSecond: number;
  verifiedSetVolumePerSecond: number;
  lone: LatencySummary;
  firstLimit: string;
}

const kb = (bytes: number | undefined) => `${((bytes ?? 0) / 1024).toFixed(1)}`;
const ms = (value: number | undefined) => `${value ?? 0}`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/**
 * Pure: the sizing table as markdown, one column per fleet size, one row per figure (what the README's
 * "How many devices" quotes).
 */
export function sizingTable(rows: readonly SizingRow[]): string[] {
  const lines: [string, (r: SizingRow) => string][] = [
    ['power-on to all discovered', (r) => `${r.discoveredSeconds} s`],
    [
      'CPU ms per device: broker / orchestrator',
      (r) => `${ms(r.cpuMsPerDevice['broker'])} / ${ms(r.cpuMsPerDevice['orchestrator'])}`,
    ],
    [
      'CPU ms per device: API / Postgres / Redis',
      (r) =>
        `${ms(r.cpuMsPerDevice['api'])} / ${ms(r.cpuMsPerDevice['postgres'])} / ${ms(r.cpuMsPerDevice['redis'])}`,
    ],
    [
      'RSS KB per device after GC: broker / orchestrator / API',
      (r) =>
        `${kb(r.rssPerDevice['broker'])} / ${kb(r.rssPerDevice['orchestrator'])} / ${kb(r.rssPerDevice['api'])}`,
    ],
    [
      'heap KB per device after GC: broker / orchestrator',
      (r) => `${kb(r.heapPerDevice['broker'])} / ${kb(r.heapPerDevice['orchestrator'])}`,
    ],
    [
      'Postgres database: discovered / after the calls',
      (r) => `${mb(r.databaseBytes.discovered)} / ${mb(r.databaseBytes.afterCalls)}`,
    ],
    ['fleet-wide reads/s', (r) => `${r.readsPerSecond}`],
    ['fleet-wide verified set_volume/s', (r) => `${r.verifiedSetVolumePerSecond}`],
    ['lone read p50 / p99 under the fleet', (r) => `${r.lone.p50} / ${r.lone.p99} ms`],
    ['first resource to run out', (r) => r.firstLimit],
  ];
  const header = ['devices', ...rows.map((r) => r.devices.toLocaleString('en'))];
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...lines.map(([label, cell]) => `| ${[label, ...rows.map(cell)].join(' | ')} |`),
  ];
}
