import { mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { BenchConfig } from '../config';
import { CallClient } from '../calls/call-client';
import { runCallPhase, type CallPhaseResult } from '../calls/call-phase';
import { READ_TOOL, SET_VOLUME_TOOL } from '../calls/fleet-calls-run';
import { fleetWide, oneAtATime, type CallOne } from '../calls/load-patterns';
import { takeHeapSnapshot } from '../harness/heap-snapshot';
import { openFilesLimit } from '../harness/proc-stats';
import { round, say } from '../harness/report';
import { startBenchPlatform, type BenchPlatform } from '../platform/bench-platform';
import { powerOnAndDiscover, type StartupCost } from '../platform/fleet-startup';
import { databaseBytes } from './database-size';
import { firstLimit, type FirstLimit } from './first-limit';
import { heapAfterGc, type HeapFigures } from './heap-after-gc';
import { memoryAvailable, openDescriptors, raiseOpenFiles } from './machine-resources';

export interface SizingStepOptions {
  devices: number;
  bootsPerSecond: number;
  /** Calls per device in each fleet-wide phase. */
  rounds: number;
  /** Lone reads, one at a time, with the whole fleet connected. */
  loneCalls: number;
  outDir: string;
  distDir: string;
  quietWaitMs: number;
  /** Heap snapshots of the broker and the orchestrator with no device and with the fleet discovered. */
  heapSnapshots?: boolean;
  /** V8's largest semi-space for the services, MB (`--max-semi-space-size`); Node's default when absent. */
  semiSpaceMb?: number;
}

export interface SizingStep {
  devices: number;
  startup: StartupCost;
  /** Live V8 heap per device after a full GC (from each service's /metrics), bytes. */
  heapPerDevice: Record<string, number>;
  /** The heap V8 keeps committed, idle and with the fleet discovered (RSS minus this is memory outside the heap). */
  heapCommitted: { idle: Record<string, number>; discovered: Record<string, number> };
  /** The run's database after discovery and after the call phases, bytes. */
  databaseBytes: { discovered: number; afterCalls: number };
  reads: CallPhaseResult;
  setVolume: CallPhaseResult;
  lone: CallPhaseResult;
  limit: FirstLimit;
  /** Paths of the heap snapshots taken (`--heap-snapshots`). */
  heapSnapshots: string[];
}

/** The services whose heap and memory a deployment pays for (the simulator and Redis are reported, not summed). */
const SERVICES = ['broker', 'orchestrator', 'api'] as const;

/**
 * One step of the sizing table on a platform of its own (as `npm start` runs its services: broker, orchestrator
 * and admin API from dist/, NODE_ENV=production, a migrated database and a redis-server): the fleet powers on
 * and is discovered, then fleet-wide reads, fleet-wide verified set_volume, and lone reads under the fleet.
 */
export async function runSizingStep(config: BenchConfig, o: SizingStepOptions): Promise<SizingStep> {
  // Without the privilege to raise it, the hard limit this process was given bounds the broker and the fleet.
  const openFiles = Math.min(o.devices + 5_000, openFilesLimit(process.pid, 'hard') ?? Infinity);
  const snapshotDir = join(o.outDir, 'heap');
  if (o.heapSnapshots) mkdirSync(snapshotDir, { recursive: true });
  const p = await startBenchPlatform(config, {
    label: 'sizing',
    devices: o.devices,
    bootsPerSecond: o.bootsPerSecond,
    macPrefix: '02:5a',
    outDir: o.outDir,
    distDir: o.distDir,
    quietWaitMs: o.quietWaitMs,
    adminApi: true,
    brokerOpenFiles: openFiles,
    ...(o.heapSnapshots ? { heapSnapshotDir: snapshotDir } : {}),
    ...(o.semiSpaceMb ? { serviceNodeOptions: [`--max-semi-space-size=${o.semiSpaceMb}`] } : {}),
  });
  const heapSnapshots: string[] = [];
  const snapshot = async (when: string) => {
    if (!o.heapSnapshots) return;
    for (const [name, pid] of [
      ['broker', p.broker.pid],
      ['orchestrator', p.orchestrator.pid],
    ] as const) {
      heapSnapshots.push(await takeHeapSnapshot(pid, snapshotDir, `${name}-${when}`));
    }
  };
  let client: CallClient | undefined;
  try {
    if (!raiseOpenFiles(p.fleet.pid, openFiles)) say('could not raise the fleet process open-files limit');
    await collectAll(p);
    const heapIdle = await heapAfterGc(metricsUrls(p));
    await snapshot('idle');
    say(`${o.devices} devices: power-on at ${o.bootsPerSecond}/s to all discovered`);
    const startup = await powerOnAndDiscover(p);
    await collectAll(p);
    const heapDiscovered = await heapAfterGc(metricsUrls(p));
    await snapshot(`${startup.devices}-discovered`);
    const heapPerDevice = Object.fromEntries(
      Object.keys(heapDiscovered).map((name) => [
        name,
        Math.round(((heapDiscovered[name]?.used ?? 0) - (heapIdle[name]?.used ?? 0)) / startup.devices),
      ]),
    );
    const discoveredBytes = await databaseBytes(p.sql, p.db.name);
    const brokerFiles = openDescriptors(p.broker.pid);
    const limit = firstLimit({
      devices: startup.devices,
      powerOnBusy: busyShare(startup.cpuSeconds, startup.seconds),
      checkInFailures: p.fleet.summary?.checkInFailures ?? 0,
      bytesPerDevice: SERVICES.reduce((sum, s) => sum + Math.max(0, startup.memory[s]?.perDevice ?? 0), 0),
      memoryAvailable: memoryAvailable(),
      brokerOpenFiles: brokerFiles,
      brokerOpenFilesLimit: openFilesLimit(p.broker.pid),
    });
    say(`  discovered in ${startup.seconds} s; ${limit.reason}`);

    const devices = await discoveredDevices(p);
    client = await CallClient.connect(p.db.appUrl, p.redis.url);
    const c = client;
    const read: CallOne = (device) => c.call(device, READ_TOOL, {});
    // Each call asks for another volume than the last one on that device, so its readback proves a change.
    const setVolume: CallOne = (device, k) =>
      c.call(device, SET_VOLUME_TOOL, { volume: 10 + (Math.floor(k / devices.length) % 2) * 40 + (k % 7) });
    const phase = (name: string, tool: string, drive: () => Promise<Awaited<ReturnType<CallOne>>[]>) =>
      runCallPhase(p, { name, tool, devices: devices.length }, async () => ({ outcomes: await drive() }));
    const reads = await phase('fleet-wide reads', READ_TOOL, () => fleetWide(devices, o.rounds, read));
    const setVolumes = await phase('fleet-wide set_volume', SET_VOLUME_TOOL, () =>
      fleetWide(devices, o.rounds, setVolume),
    );
    const lone = await phase('lone reads', READ_TOOL, () => oneAtATime(devices, o.loneCalls, read));
    return {
      devices: startup.devices,
      startup,
      heapPerDevice,
      heapCommitted: { idle: committedOf(heapIdle), discovered: committedOf(heapDiscovered) },
      databaseBytes: { discovered: discoveredBytes, afterCalls: await databaseBytes(p.sql, p.db.name) },
      reads,
      setVolume: setVolumes,
      lone,
      limit,
      heapSnapshots,
    };
  } finally {
    await client?.close();
    await p.stop();
  }
}

function committedOf(heap: Record<string, HeapFigures>): Record<string, number> {
  return Object.fromEntries(Object.entries(heap).map(([name, h]) => [name, h.committed]));
}

function metricsUrls(p: BenchPlatform): Record<string, string> {
  return { broker: p.broker.metricsUrl, orchestrator: p.orchestrator.metricsUrl };
}

async function collectAll(p: BenchPlatform): Promise<void> {
  await Promise.all([p.broker.collectGarbage(), p.orchestrator.collectGarbage(), p.api?.collectGarbage()]);
}

/** The machine's busy share over a phase: every process's CPU (ours and `other`) over all cores. */
function busyShare(cpuSeconds: Record<string, number>, seconds: number): number {
  const used = Object.values(cpuSeconds).reduce((sum, s) => sum + s, 0);
  return round(used / (cpus().length * Math.max(0.001, seconds)), 3);
}

/** Devices spread in a fixed order other than by MAC, so lone calls do not walk the fleet in boot order. */
async function discoveredDevices(p: BenchPlatform): Promise<string[]> {
  const { rows } = await p.sql.query<{ id: string }>(
    'SELECT id FROM device WHERE catalog_version_id IS NOT NULL ORDER BY md5(id::text)',
  );
  return rows.map((r) => r.id);
}
