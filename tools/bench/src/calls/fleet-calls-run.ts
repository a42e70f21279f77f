import { join } from 'node:path';
import type { BenchConfig } from '../config';
import { perfRecord } from '../harness/perf-record';
import { createOperatorKey } from '../campaign/operators';
import { say } from '../harness/report';
import { startBenchPlatform, type BenchPlatform } from '../platform/bench-platform';
import { powerOnAndDiscover, type StartupCost } from '../platform/fleet-startup';
import { CallClient } from './call-client';
import { runCallPhase, type CallPhaseResult } from './call-phase';
import { fixedRate, fleetWide, oneAtATime, type CallOne } from './load-patterns';

export const READ_TOOL = 'self.get_device_status';
export const SET_VOLUME_TOOL = 'self.audio_speaker.set_volume';

export interface FleetCallsOptions {
  devices: number;
  bootsPerSecond: number;
  /** Calls per device in each fleet-wide phase. */
  rounds: number;
  /** Calls of the one-at-a-time phase (0: skipped). */
  sequential: number;
  /** The open-loop phase: this many read calls per second for `rateSeconds` (0: skipped). */
  rate: number;
  rateSeconds: number;
  outDir: string;
  distDir: string;
  quietWaitMs: number;
  /** Profile the orchestrator over the whole run (`cpu`), or `perf record` it during the fleet-wide reads. */
  profile?: 'cpu' | 'perf';
  /** How calls are asked for: the producer in-process (as the API does it), or an operator through REST. */
  via?: 'producer' | 'rest';
  /** Through REST: how many POSTs an operator's script keeps open at once. */
  postsInFlight?: number;
}

export interface FleetCallsResult {
  devices: number;
  startup: StartupCost;
  phases: CallPhaseResult[];
  logs: Record<string, Record<string, number>>;
  logSamples: string[];
}

/**
 * Scenario 2 for one fleet size: the fleet powers on and is discovered (start-up cost), then fleet-wide reads,
 * fleet-wide verified set_volume, reads one at a time, and reads at a fixed rate. Every call is asked for as the
 * API asks (CallRequests) and counts once its verdict is sealed with its evidence committed.
 */
export async function runFleetCalls(config: BenchConfig, o: FleetCallsOptions): Promise<FleetCallsResult> {
  const p = await startBenchPlatform(config, {
    label: 'calls',
    devices: o.devices,
    bootsPerSecond: o.bootsPerSecond,
    macPrefix: '02:5c',
    outDir: o.outDir,
    distDir: o.distDir,
    quietWaitMs: o.quietWaitMs,
    ...(o.profile ? { orchestratorProfile: o.profile } : {}),
    adminApi: o.via === 'rest',
  });
  let client: CallClient | undefined;
  try {
    say(`fleet of ${o.devices}: power-on, check-in, connect, discovery`);
    const startup = await powerOnAndDiscover(p);
    say(
      `  all discovered in ${startup.seconds} s: broker+orchestrator ${startup.servicesCpuMsPerDevice} ms CPU and ` +
        `${(startup.servicesBytesPerDevice / 1024).toFixed(1)} KB per device`,
    );
    const devices = await deviceIds(p);
    client =
      o.via === 'rest' && p.api
        ? await CallClient.connectRest(
            { baseUrl: p.api.baseUrl, key: await createOperatorKey(p.sql, 'operator', 'bench operator') },
            p.redis.url,
            { postsInFlight: o.postsInFlight },
          )
        : await CallClient.connect(p.db.appUrl, p.redis.url);
    const c = client;
    const read: CallOne = (device) => c.call(device, READ_TOOL, {});
    // Each call asks for another volume than the previous one on that device, so the readback proves a change.
    const setVolume: CallOne = (device, k) =>
      c.call(device, SET_VOLUME_TOOL, { volume: 10 + (Math.floor(k / devices.length) % 2) * 40 + (k % 7) });
    say('warm-up: one read per device (not counted)');
    await fleetWide(devices, 1, read);

    const phases: CallPhaseResult[] = [];
    const perf = o.profile === 'perf' ? perfRecord(p.orchestrator.pid, o.outDir) : undefined;
    phases.push(
      await runCallPhase(
        p,
        { name: 'fleet-wide reads', tool: READ_TOOL, devices: devices.length },
        async () => ({
          outcomes: await fleetWide(devices, o.rounds, read),
        }),
      ),
    );
    await perf?.stop();
    phases.push(
      await runCallPhase(
        p,
        { name: 'fleet-wide set_volume', tool: SET_VOLUME_TOOL, devices: devices.length },
        async () => ({ outcomes: await fleetWide(devices, o.rounds, setVolume) }),
      ),
    );
    if (o.sequential > 0) {
      phases.push(
        await runCallPhase(
          p,
          { name: 'reads one at a time', tool: READ_TOOL, devices: devices.length },
          async () => ({
            outcomes: await oneAtATime(shuffled(devices), o.sequential, read),
          }),
        ),
      );
    }
    if (o.rate > 0) {
      phases.push(
        await runCallPhase(
          p,
          { name: `reads at ${o.rate}/s`, tool: READ_TOOL, devices: devices.length },
          () => fixedRate(shuffled(devices), o.rate, o.rateSeconds, read),
        ),
      );
    }
    return {
      devices: o.devices,
      startup,
      phases,
      logs: {
        broker: p.broker.logs.counts,
        orchestrator: p.orchestrator.logs.counts,
        ...(p.api ? { 'admin-api': p.api.logs.counts } : {}),
      },
      logSamples: [...p.broker.logs.samples, ...p.orchestrator.logs.samples, ...(p.api?.logs.samples ?? [])],
    };
  } finally {
    await client?.close();
    await p.stop();
    say(`logs${o.profile ? ' and profile' : ''} in ${join(o.outDir)}`);
  }
}

async function deviceIds(p: BenchPlatform): Promise<string[]> {
  const { rows } = await p.sql.query<{ id: string }>(
    'SELECT id FROM device WHERE catalog_version_id IS NOT NULL ORDER BY id',
  );
  return rows.map((r) => r.id);
}

/** The same devices in a fixed pseudo-random order (one-at-a-time calls should not walk MACs in order). */
function shuffled(devices: readonly string[]): string[] {
  const out = [...devices];
  let seed = 42;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
