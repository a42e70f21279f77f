import { performance } from 'node:perf_hooks';
import { round, say } from '../harness/report';
import type { BenchPlatform } from '../platform/bench-platform';
import { latencySummary, type LatencySummary } from '../platform/latency';
import { costBetween, perUnitMs, sampleCost, type PhaseCost } from '../platform/process-cost';
import type { CallOutcome } from './call-client';
import { readSealedCalls, type SealedCalls } from './sealed-calls';

/** What a phase measures through: the run's processes, its Postgres, and a wait for a quiet machine. */
export type MeasuredPlatform = Pick<BenchPlatform, 'quiet' | 'sql' | 'pids' | 'postgres'>;

export interface CallPhaseResult {
  name: string;
  tool: string;
  devices: number;
  calls: number;
  seconds: number;
  /** Calls sealed per second (every verdict), and those verified. */
  callsPerSecond: number;
  verifiedPerSecond: number;
  /** The offered rate of an open-loop phase. */
  offeredPerSecond?: number;
  /** Caller's wall clock: just before the request to the sealed event on fleet:events. */
  latencyMs: LatencySummary;
  /** The request alone (row inserted, job added). */
  enqueueMs: LatencySummary;
  sealed: SealedCalls;
  /** Evidence rows committed per second during the phase (all calls, prerequisites included). */
  evidenceRowsPerSecond: number;
  cost: PhaseCost;
  cpuMsPerCall: Record<string, number>;
  machineBusyBefore: number;
}

/**
 * Runs one load pattern and measures it from three sides: the caller (latency to the sealed event), Postgres
 * (verdicts, sealed_at - created_at, five evidence rows per call) and /proc (CPU of every process per call).
 */
export async function runCallPhase(
  p: MeasuredPlatform,
  o: { name: string; tool: string; devices: number },
  drive: () => Promise<{ outcomes: CallOutcome[]; offeredPerSecond?: number }>,
): Promise<CallPhaseResult> {
  const machineBusyBefore = await p.quiet();
  say(`${o.name}: ${o.tool} over ${o.devices} devices`);
  const rowsBefore = await evidenceRows(p);
  const from = await sampleCost(p.pids, p.postgres);
  const started = performance.now();
  const { outcomes, offeredPerSecond } = await drive();
  const seconds = (performance.now() - started) / 1000;
  const to = await sampleCost(p.pids, p.postgres);
  const rowsAfter = await evidenceRows(p);
  const sealed = await readSealedCalls(
    p.sql,
    outcomes.map((c) => c.callId),
  );
  const verified = outcomes.filter((c) => c.verdict === 'verified').length;
  const cost = costBetween(from, to);
  const result: CallPhaseResult = {
    ...o,
    calls: outcomes.length,
    seconds: round(seconds, 3),
    callsPerSecond: round(outcomes.length / seconds, 1),
    verifiedPerSecond: round(verified / seconds, 1),
    ...(offeredPerSecond !== undefined ? { offeredPerSecond: round(offeredPerSecond, 1) } : {}),
    latencyMs: latencySummary(outcomes.map((c) => c.latencyMs)),
    enqueueMs: latencySummary(outcomes.map((c) => c.enqueueMs)),
    sealed,
    evidenceRowsPerSecond: round((rowsAfter - rowsBefore) / seconds, 1),
    cost,
    cpuMsPerCall: perUnitMs(cost, outcomes.length),
    machineBusyBefore: round(machineBusyBefore),
  };
  say(
    `  ${result.calls} calls in ${result.seconds} s: ${result.callsPerSecond}/s, verified ${verified}, ` +
      `p50/p99 ${result.latencyMs.p50}/${result.latencyMs.p99} ms`,
  );
  return result;
}

async function evidenceRows(p: MeasuredPlatform): Promise<number> {
  // The planner's estimate would do for a rate, but an exact count keeps the figure honest at small phases.
  const { rows } = await p.sql.query<{ n: string }>('SELECT count(*) AS n FROM evidence');
  return Number(rows[0]?.n ?? 0);
}
