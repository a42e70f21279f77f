import { queryNumber } from '../harness/bench-database';
import { round, say } from '../harness/report';
import type { BenchPlatform } from './bench-platform';
import { costBetween, memoryOf, perUnitMs, sampleCost, type PhaseCost } from './process-cost';

export interface StartupCost extends PhaseCost {
  devices: number;
  /** Busy share of the machine (0..1) just before the fleet powered on: other people's work skews figures. */
  machineBusyBefore: number;
  cpuMsPerDevice: Record<string, number>;
  /** The figure: broker + orchestrator CPU per device for connect plus full discovery. */
  servicesCpuMsPerDevice: number;
  /** Resident memory after a full GC, with no devices and with all of them discovered. */
  memory: Record<string, { idle: number; discovered: number; peak: number; perDevice: number }>;
  servicesBytesPerDevice: number;
  /**
   * What Postgres wrote: WAL bytes per device over the window (the whole server's WAL, so other databases'
   * writes on a shared machine count too) and the run's database size once all are discovered. Unlike CPU, these
   * do not depend on the machine's load.
   */
  postgresWrites: { walBytesPerDevice: number; databaseBytes: number };
}

const WAL_POSITION = 'SELECT pg_current_wal_lsn()::text AS n';

const SERVICES = ['broker', 'orchestrator'] as const;

/**
 * The fleet start-up phase: every device powers on, checks in, connects, and is discovered (initialize and
 * every tools/list page, user tools included) until `device.catalog_version_id` is set for all. Reports CPU
 * and memory per device, and what the broker and the orchestrator cost together (the target of docs/BENCHMARKS.md: 1.0 ms, 28 KB).
 */
export async function powerOnAndDiscover(p: BenchPlatform, timeoutMs = 10 * 60_000): Promise<StartupCost> {
  await Promise.all([p.broker.collectGarbage(), p.orchestrator.collectGarbage()]);
  const idle = memoryOf(p.pids);
  const machineBusyBefore = await p.quiet();
  const from = await sampleCost(p.pids, p.postgres);
  const walFrom = (await p.sql.query<{ n: string }>(WAL_POSITION)).rows[0]!.n;
  p.fleet.start();
  const total = await expectedDevices(p);
  const deadline = Date.now() + timeoutMs;
  let lastSaid = 0;
  let lastSampled = Date.now();
  for (;;) {
    const discovered = await queryNumber(
      p.sql,
      'SELECT count(*)::int AS n FROM device WHERE catalog_version_id IS NOT NULL',
    );
    if (discovered >= total) break;
    if (Date.now() > deadline) throw new Error(`only ${discovered} of ${total} devices discovered in time`);
    if (Date.now() - lastSampled > 1_000) {
      lastSampled = Date.now();
      await p.postgres.sample(); // backends that close before the end still count (PostgresCpu)
    }
    if (Date.now() - lastSaid > 3_000) {
      lastSaid = Date.now();
      say(`  connected ${p.fleet.summary?.connected ?? 0}, discovered ${discovered} of ${total}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const to = await sampleCost(p.pids, p.postgres);
  const cost = costBetween(from, to);
  const { rows: wal } = await p.sql.query<{ n: string }>(
    'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn) AS n',
    [walFrom],
  );
  const walBytes = Number(wal[0]!.n);
  const databaseBytes = await queryNumber(p.sql, 'SELECT pg_database_size(current_database()) AS n');
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await Promise.all([p.broker.collectGarbage(), p.orchestrator.collectGarbage()]);
  const after = memoryOf(p.pids);
  const memory = Object.fromEntries(
    Object.keys(after).map((name) => {
      const before = idle[name]?.rss ?? 0;
      const now = after[name]!.rss;
      return [
        name,
        {
          idle: before,
          discovered: now,
          peak: after[name]!.peak,
          perDevice: Math.round((now - before) / total),
        },
      ];
    }),
  );
  const cpuMsPerDevice = perUnitMs(cost, total);
  return {
    ...cost,
    devices: total,
    machineBusyBefore: round(machineBusyBefore),
    cpuMsPerDevice,
    servicesCpuMsPerDevice: round(
      SERVICES.reduce((sum, s) => sum + (cpuMsPerDevice[s] ?? 0), 0),
      3,
    ),
    memory,
    servicesBytesPerDevice: SERVICES.reduce((sum, s) => sum + (memory[s]?.perDevice ?? 0), 0),
    postgresWrites: { walBytesPerDevice: Math.round(walBytes / total), databaseBytes },
  };
}

/** The fleet's size as its own process reports it (the first progress report comes once it started). */
async function expectedDevices(p: BenchPlatform): Promise<number> {
  while (!p.fleet.summary) await new Promise((resolve) => setTimeout(resolve, 50));
  return p.fleet.summary.devices;
}
