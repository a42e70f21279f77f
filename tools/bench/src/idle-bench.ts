// What an idle platform costs: the broker, the orchestrator and the admin API (and Postgres and Redis for them)
// with a small fleet connected and discovered but nothing asked of it, CPU per second of each process.
//   npm run bench:idle -- [--devices 20] [--seconds 30] [--dist <dir>] [--profile cpu]
// `--profile cpu` writes the orchestrator's and the admin API's --cpu-prof (their whole life) beside their logs;
// the result's `windowUs` (CLOCK_MONOTONIC, the clock of the profiles' timestamps) marks the idle window in them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadBenchConfig } from './config';
import { printResult, round, say, table } from './harness/report';
import { startBenchPlatform } from './platform/bench-platform';
import { powerOnAndDiscover } from './platform/fleet-startup';
import { wakeUps } from './harness/proc-stats';
import type { BenchPlatform } from './platform/bench-platform';
import { costBetween, sampleCost } from './platform/process-cost';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '20' },
      seconds: { type: 'string', default: '30' },
      dist: { type: 'string' },
      profile: { type: 'string' },
    },
  });
  const config = loadBenchConfig();
  if (values.profile !== undefined && values.profile !== 'cpu') throw new Error('--profile takes cpu');
  const p = await startBenchPlatform(config, {
    label: 'idle',
    devices: Number(values.devices),
    bootsPerSecond: 50,
    macPrefix: '02:5b',
    outDir: join('/tmp', `bench-idle-${process.pid}`),
    distDir: values.dist ?? join(config.root, 'dist'),
    quietWaitMs: 5_000,
    adminApi: true,
    ...(values.profile === 'cpu'
      ? { orchestratorProfile: 'cpu' as const, adminApiProfile: 'cpu' as const }
      : {}),
  });
  try {
    await powerOnAndDiscover(p);
    await everyDeviceConnected(p);
    const settled = await settle(p);
    say(
      `${settled.flat ? 'settled' : 'still not flat'} after ${Math.round(settled.waitedMs / 1000)} s ` +
        `(services' CPU in the last ${SETTLE_WINDOW_MS / 1000} s windows: ${settled.windowsMs.join(', ')} ms); ` +
        `idle for ${values.seconds} s`,
    );
    const wakes = (): Record<string, number> =>
      Object.fromEntries(Object.entries(p.pids).map(([name, pid]) => [name, wakeUps(pid)]));
    const wakesFrom = wakes();
    const fromUs = monotonicUs();
    const from = await sampleCost(p.pids, p.postgres);
    const peaks = await peakSeconds(p, Number(values.seconds));
    const to = await sampleCost(p.pids, p.postgres);
    const toUs = monotonicUs();
    const wakesTo = wakes();
    const cost = costBetween(from, to);
    const perSecond = Object.fromEntries(
      Object.entries(cost.cpuSeconds).map(([name, s]) => [name, round((s * 1000) / cost.seconds, 2)]),
    );
    const ours = ['broker', 'orchestrator', 'api', 'postgres', 'redis'];
    const wakeUpsPerSecond = Object.fromEntries(
      Object.keys(wakesTo).map((name) => [
        name,
        round(((wakesTo[name] ?? 0) - (wakesFrom[name] ?? 0)) / cost.seconds, 1),
      ]),
    );
    const total = round(
      ours.reduce((sum, name) => sum + (perSecond[name] ?? 0), 0),
      2,
    );
    printResult(
      'idle',
      {
        devices: Number(values.devices),
        seconds: cost.seconds,
        settle: settled,
        perSecond,
        total,
        peakSecondMs: peaks,
        wakeUpsPerSecond,
        windowUs: [fromUs, toUs],
      },
      [
        `idle platform, ${values.devices} devices connected, ${cost.seconds} s: CPU ms per second`,
        ...table(
          [...ours, 'platform', 'sim', 'other'],
          [[...ours.map((n) => perSecond[n] ?? 0), total, perSecond['sim'] ?? 0, perSecond['other'] ?? 0]],
        ),
        `the busiest single second of each (ms): ${SERVICES.map((n) => `${n} ${peaks[n] ?? 0}`).join(', ')}`,
      ],
    );
  } finally {
    await p.stop();
  }
}

/** The processes whose CPU decides when the platform has settled, and whose busiest second is reported. */
const SERVICES = ['broker', 'orchestrator', 'api', 'redis'] as const;
const SETTLE_WINDOW_MS = 5_000;
/** Not before this long after discovery: V8 trims the heap a few seconds after a burst of work ends. */
const SETTLE_MIN_MS = 15_000;
const SETTLE_MAX_MS = 120_000;

/** Discovery is done once every device has a catalog; the window also waits for every device to be connected. */
async function everyDeviceConnected(p: BenchPlatform): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const summary = p.fleet.summary;
    if (summary && summary.connected >= summary.devices) return;
    if (Date.now() > deadline) {
      throw new Error(`only ${summary?.connected ?? 0} of ${summary?.devices ?? '?'} devices connected`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Waits until the services' CPU is flat, so the window measures the idle cost and not the tail of start-up and
 * discovery (lazy compiles, the heap trimmed after the burst, the first rounds of every timer): two windows in a
 * row whose CPU (the services, Redis and the run's Postgres backends) differs by at most a quarter, or 5 ms.
 */
async function settle(p: BenchPlatform): Promise<{ flat: boolean; waitedMs: number; windowsMs: number[] }> {
  const started = Date.now();
  const windowsMs: number[] = [];
  let last = await cpuNsOf(p);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_WINDOW_MS));
    const now = await cpuNsOf(p);
    windowsMs.push(round((now - last) / 1e6, 1));
    last = now;
    const waitedMs = Date.now() - started;
    const [a, b] = windowsMs.slice(-2);
    const flat = a !== undefined && b !== undefined && Math.abs(a - b) <= Math.max(5, 0.25 * Math.max(a, b));
    if ((flat && waitedMs >= SETTLE_MIN_MS) || waitedMs >= SETTLE_MAX_MS) {
      return { flat, waitedMs, windowsMs: windowsMs.slice(-4) };
    }
  }
}

async function cpuNsOf(p: BenchPlatform): Promise<number> {
  const backends = [...(await p.postgres.sample()).keys()];
  return [...SERVICES.map((name) => p.pids[name]), ...backends]
    .filter((pid): pid is number => pid !== undefined)
    .reduce((sum, pid) => sum + threadsCpuNs(pid), 0);
}

/**
 * On-CPU nanoseconds so far of a process's live threads (proc(5) `/proc/<pid>/task/<tid>/schedstat`, first
 * field): finer than the 10 ms ticks of `/proc/<pid>/stat`, which an idle service uses one of every few seconds.
 */
function threadsCpuNs(pid: number): number {
  let ns = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    // the process has gone
  }
  return ns;
}

/** Waits out the window second by second; answers the most CPU (ms) each service used in any one second. */
async function peakSeconds(p: BenchPlatform, seconds: number): Promise<Record<string, number>> {
  const peaks: Record<string, number> = {};
  const sample = () => Object.fromEntries(SERVICES.map((n) => [n, threadsCpuNs(p.pids[n] ?? -1)]));
  const end = Date.now() + seconds * 1000;
  let last = sample();
  while (Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, Math.max(0, end - Date.now()))));
    const now = sample();
    for (const n of SERVICES)
      peaks[n] = Math.max(peaks[n] ?? 0, round(((now[n] ?? 0) - (last[n] ?? 0)) / 1e6, 1));
    last = now;
  }
  return peaks;
}

/** CLOCK_MONOTONIC in microseconds: the clock V8 stamps a --cpu-prof's startTime and endTime with on Linux. */
function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

main().catch((err: unknown) => {
  say((err as Error).stack ?? String(err));
  process.exit(1);
});
