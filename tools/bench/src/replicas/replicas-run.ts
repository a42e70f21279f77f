import type { BenchConfig } from '../config';
import { queryNumber } from '../harness/bench-database';
import { round, say } from '../harness/report';
import { CallClient, type CallOutcome } from '../calls/call-client';
import { runCallPhase, type CallPhaseResult } from '../calls/call-phase';
import { READ_TOOL, SET_VOLUME_TOOL } from '../calls/fleet-calls-run';
import { fleetWide, type CallOne } from '../calls/load-patterns';
import { costBetween, perUnitMs, sampleCost } from '../platform/process-cost';
import { startReplicaPlatform, type ReplicaLayout, type ReplicaPlatform } from './replica-platform';

export interface ReplicasOptions extends ReplicaLayout {
  devices: number;
  bootsPerSecond: number;
  rounds: number;
  outDir: string;
  distDir: string;
  quietWaitMs: number;
  leaseTtlMs: number;
  /** With two orchestrators or more: SIGKILL the last one this long into a fleet-wide read phase. */
  killAfterMs: number;
}

export interface ReplicasResult extends ReplicaLayout {
  devices: number;
  startup: { seconds: number; cpuMsPerDevice: Record<string, number> };
  phases: CallPhaseResult[];
  /** Calls asked for that Postgres has no verdict for at the end of their phase (the figure that must be 0). */
  lost: number;
  /** The process kind that spent the most CPU per call in the fleet-wide phases: the next bottleneck. */
  busiest: { kind: string; cpuMsPerCall: number; ofAllPerCall: number };
}

/**
 * One layout of brokers × orchestrators: the fleet powers on and is discovered, then fleet-wide reads and
 * verified set_volume, and (with two orchestrators or more) reads during which one orchestrator is killed: its
 * partitions are taken over when their leases lapse, and every call must still be sealed with its evidence.
 */
export async function runReplicas(config: BenchConfig, o: ReplicasOptions): Promise<ReplicasResult> {
  const p = await startReplicaPlatform(config, o);
  let client: CallClient | undefined;
  try {
    say(
      `${o.brokers} broker(s) × ${o.orchestrators} orchestrator(s), ${o.devices} devices: power-on, discovery`,
    );
    const startup = await powerOnAll(p, o.devices);
    say(`  all discovered in ${startup.seconds} s`);
    const { rows } = await p.sql.query<{ id: string }>(
      'SELECT id FROM device WHERE catalog_version_id IS NOT NULL ORDER BY id',
    );
    const devices = rows.map((r) => r.id);
    // A replica killed between a seal and its notice leaves a caller waiting: Postgres says what was sealed.
    client = await CallClient.connect(p.db.appUrl, p.redis.url, { sealTimeoutMs: 60_000 });
    const c = client;
    const read: CallOne = (device) => c.call(device, READ_TOOL, {});
    const setVolume: CallOne = (device, k) =>
      c.call(device, SET_VOLUME_TOOL, { volume: 10 + (Math.floor(k / devices.length) % 2) * 40 + (k % 7) });
    await fleetWide(devices, 1, read); // warm-up, not counted
    const phases: CallPhaseResult[] = [];
    const keep = async (run: Promise<CallOutcome[]>) => ({ outcomes: await run });
    phases.push(
      await runCallPhase(p, { name: 'fleet-wide reads', tool: READ_TOOL, devices: devices.length }, () =>
        keep(fleetWide(devices, o.rounds, read)),
      ),
    );
    phases.push(
      await runCallPhase(
        p,
        { name: 'fleet-wide set_volume', tool: SET_VOLUME_TOOL, devices: devices.length },
        () => keep(fleetWide(devices, o.rounds, setVolume)),
      ),
    );
    if (o.orchestrators > 1) {
      const victim = o.orchestrators - 1;
      phases.push(
        await runCallPhase(
          p,
          { name: `reads, orchestrator-${victim} killed`, tool: READ_TOOL, devices: devices.length },
          () => {
            const timer = setTimeout(() => {
              say(`  SIGKILL orchestrator-${victim}`);
              process.kill(p.orchestrators[victim]!.pid, 'SIGKILL');
              delete p.pids[`orchestrator-${victim}`];
            }, o.killAfterMs);
            return keep(fleetWide(devices, o.rounds, read)).finally(() => clearTimeout(timer));
          },
        ),
      );
    }
    return {
      brokers: o.brokers,
      orchestrators: o.orchestrators,
      devices: devices.length,
      startup,
      phases,
      lost: phases.reduce((n, ph) => n + (ph.sealed.verdicts['unsealed'] ?? 0), 0),
      busiest: busiest(phases.slice(0, 2)),
    };
  } finally {
    await client?.close();
    await p.stop();
  }
}

async function powerOnAll(p: ReplicaPlatform, devices: number): Promise<ReplicasResult['startup']> {
  await p.quiet();
  const from = await sampleCost(p.pids, p.postgres);
  for (const fleet of p.fleets) fleet.start();
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const discovered = await queryNumber(
      p.sql,
      'SELECT count(*)::int AS n FROM device WHERE catalog_version_id IS NOT NULL',
    );
    if (discovered >= devices) break;
    if (Date.now() > deadline) throw new Error(`only ${discovered} of ${devices} devices discovered in time`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const cost = costBetween(from, await sampleCost(p.pids, p.postgres));
  return { seconds: cost.seconds, cpuMsPerDevice: byKind(perUnitMs(cost, devices)) };
}

/** Per-process figures summed by kind: broker-0 + broker-1 → broker. */
export function byKind(perProcess: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(perProcess)) {
    const kind = name.replace(/-\d+$/, '');
    out[kind] = round((out[kind] ?? 0) + value, 3);
  }
  return out;
}

function busiest(phases: CallPhaseResult[]): ReplicasResult['busiest'] {
  const sums: Record<string, number> = {};
  for (const ph of phases)
    for (const [kind, ms] of Object.entries(byKind(ph.cpuMsPerCall))) sums[kind] = (sums[kind] ?? 0) + ms;
  delete sums['other'];
  delete sums['bench'];
  const all = Object.values(sums).reduce((a, b) => a + b, 0);
  const [kind, ms] = Object.entries(sums).sort((a, b) => b[1] - a[1])[0] ?? ['none', 0];
  return { kind, cpuMsPerCall: round(ms / phases.length, 3), ofAllPerCall: round(all / phases.length, 3) };
}
