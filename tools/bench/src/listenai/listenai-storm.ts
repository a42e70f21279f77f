import type { BenchConfig } from '../config';
import { say } from '../harness/report';
import type { ListenAiFleetProcessOptions } from '../load/listenai-fleet-process';
import { startBenchPlatform } from '../platform/bench-platform';
import { powerOnAndDiscover, type StartupCost } from '../platform/fleet-startup';
import { forkSimFleet } from '../platform/sim-fleet';
import { registerBenchFleet } from './register-bench-fleet';

export interface ListenAiStormOptions {
  devices: number;
  connectsPerSecond: number;
  outDir: string;
  distDir: string;
  quietWaitMs: number;
}

export interface ListenAiStormResult extends StartupCost {
  connectsPerSecond: number;
  serverSideCpuMsPerDevice: number;
  logs: Record<string, Record<string, number>>;
  logSamples: string[];
}

/**
 * The ListenAI fleet: N registered devices dial the broker's link with their tokens, come online, and are
 * discovered by the orchestrator (initialize, then tools/list across two pages of opaque cursors) until every
 * one has a catalog version. Measured like the xiaozhi discovery run (platform/fleet-startup.ts), each part a
 * process of its own.
 */
export async function runListenAiStorm(
  config: BenchConfig,
  o: ListenAiStormOptions,
): Promise<ListenAiStormResult> {
  const p = await startBenchPlatform(config, {
    label: 'listenai',
    devices: o.devices,
    bootsPerSecond: o.connectsPerSecond,
    macPrefix: '02:1a',
    outDir: o.outDir,
    distDir: o.distDir,
    quietWaitMs: o.quietWaitMs,
    async startFleet({ broker, sql }) {
      const tokensFile = await registerBenchFleet(sql, {
        devices: o.devices,
        macPrefix: '02:1a',
        outDir: o.outDir,
      });
      const options: ListenAiFleetProcessOptions = {
        tokensFile,
        linkUrl: `ws://127.0.0.1:${broker.ports.link}`,
        connectsPerSecond: o.connectsPerSecond,
      };
      return forkSimFleet(options, '../load/listenai-fleet-process.js');
    },
  });
  try {
    say(`ListenAI link + discovery: ${o.devices} devices, links ${o.connectsPerSecond || 'all at once'}/s`);
    const startup = await powerOnAndDiscover(p);
    const ms = startup.cpuMsPerDevice;
    const serverSide = ['broker', 'orchestrator', 'postgres', 'redis'].reduce((s, k) => s + (ms[k] ?? 0), 0);
    return {
      ...startup,
      connectsPerSecond: o.connectsPerSecond,
      serverSideCpuMsPerDevice: Math.round(serverSide * 1000) / 1000,
      logs: { broker: p.broker.logs.counts, orchestrator: p.orchestrator.logs.counts },
      logSamples: [...p.broker.logs.samples, ...p.orchestrator.logs.samples].slice(0, 5),
    };
  } finally {
    await p.stop();
  }
}
