import type { BenchConfig } from '../config';
import type { BrokerProfile } from '../harness/broker-process';
import { perfRecord } from '../harness/perf-record';
import { say } from '../harness/report';
import { startBenchPlatform } from '../platform/bench-platform';
import { powerOnAndDiscover, type StartupCost } from '../platform/fleet-startup';

export interface DiscoveryStormOptions {
  devices: number;
  bootsPerSecond: number;
  outDir: string;
  distDir: string;
  quietWaitMs: number;
  /**
   * Profile the broker and the orchestrator alike: `cpu` (`--cpu-prof`, written when they stop), `heap` (the
   * broker's `--heap-prof` only), `perf` (`perf record` of each while the fleet starts up).
   */
  profile?: BrokerProfile;
  /** V8's largest semi-space of the broker and the orchestrator, MB (`--max-semi-space-size`); Node's default when absent. */
  semiSpaceMb?: number;
}

export interface DiscoveryStormResult extends StartupCost {
  bootsPerSecond: number;
  /** Broker, orchestrator, Postgres and Redis together: what the fleet costs the whole server side. */
  serverSideCpuMsPerDevice: number;
  logs: Record<string, Record<string, number>>;
  logSamples: string[];
}

/**
 * The target for scenario 1: a fleet powers on, checks in, connects and is discovered by the
 * orchestrator (initialize and every tools/list page, user tools included) until every device has a catalog
 * version. The broker, the orchestrator, the fleet, Postgres and Redis are each a process of their own; the
 * cost is reported per device and per process (platform/fleet-startup.ts measures it).
 */
export async function runDiscoveryStorm(
  config: BenchConfig,
  o: DiscoveryStormOptions,
): Promise<DiscoveryStormResult> {
  const p = await startBenchPlatform(config, {
    label: 'discover',
    devices: o.devices,
    bootsPerSecond: o.bootsPerSecond,
    macPrefix: '02:5e',
    outDir: o.outDir,
    distDir: o.distDir,
    quietWaitMs: o.quietWaitMs,
    ...(o.profile ? { brokerProfile: o.profile } : {}),
    ...(o.profile === 'cpu' || o.profile === 'perf' ? { orchestratorProfile: o.profile } : {}),
    ...(o.semiSpaceMb ? { serviceNodeOptions: [`--max-semi-space-size=${o.semiSpaceMb}`] } : {}),
  });
  try {
    say(`connect + discovery: ${o.devices} devices, boots ${o.bootsPerSecond || 'all at once'}/s`);
    const perf =
      o.profile === 'perf'
        ? [
            perfRecord(p.broker.pid, o.outDir, 'perf-broker.data'),
            perfRecord(p.orchestrator.pid, o.outDir, 'perf-orchestrator.data'),
          ]
        : [];
    const startup = await powerOnAndDiscover(p).finally(() => Promise.all(perf.map((r) => r.stop())));
    const ms = startup.cpuMsPerDevice;
    const serverSide = ['broker', 'orchestrator', 'postgres', 'redis'].reduce((s, k) => s + (ms[k] ?? 0), 0);
    return {
      ...startup,
      bootsPerSecond: o.bootsPerSecond,
      serverSideCpuMsPerDevice: Math.round(serverSide * 1000) / 1000,
      logs: { broker: p.broker.logs.counts, orchestrator: p.orchestrator.logs.counts },
      logSamples: [...p.broker.logs.samples, ...p.orchestrator.logs.samples].slice(0, 5),
    };
  } finally {
    await p.stop();
  }
}
