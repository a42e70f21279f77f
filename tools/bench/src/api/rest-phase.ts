import { performance } from 'node:perf_hooks';
import { round, say } from '../harness/report';
import type { BenchPlatform } from '../platform/bench-platform';
import { latencySummary, type LatencySummary } from '../platform/latency';
import { costBetween, perUnitMs, sampleCost, type PhaseCost } from '../platform/process-cost';
import type { LoadOutcome } from './rest-load';

export interface RestPhaseResult {
  name: string;
  inFlight: number;
  /** Requests answered as asked; `failed` were refused (counted in no rate, but their CPU is in the cost). */
  requests: number;
  failed: number;
  firstError?: string;
  seconds: number;
  perSecond: number;
  latencyMs: LatencySummary;
  cost: PhaseCost;
  /** CPU ms per request by process (`api` is the admin API); `other` is the rest of the machine meanwhile. */
  cpuMsPerRequest: Record<string, number>;
  machineBusyBefore: number;
}

/** Runs one load against the API and measures it from the caller (rate, latency) and /proc (CPU per request). */
export async function runRestPhase(
  p: BenchPlatform,
  o: { name: string; inFlight: number },
  drive: () => Promise<LoadOutcome>,
): Promise<RestPhaseResult> {
  const machineBusyBefore = await p.quiet();
  const from = await sampleCost(p.pids, p.postgres);
  const started = performance.now();
  const { latencies, failed, firstError } = await drive();
  const seconds = (performance.now() - started) / 1000;
  const to = await sampleCost(p.pids, p.postgres);
  const cost = costBetween(from, to);
  const result: RestPhaseResult = {
    ...o,
    requests: latencies.length,
    failed,
    ...(firstError ? { firstError } : {}),
    seconds: round(seconds, 3),
    perSecond: round(latencies.length / seconds, 1),
    latencyMs: latencySummary(latencies),
    cost,
    cpuMsPerRequest: perUnitMs(cost, latencies.length + failed),
    machineBusyBefore: round(machineBusyBefore),
  };
  say(
    `  ${o.name} (${o.inFlight} in flight): ${result.perSecond}/s, p50/p99 ${result.latencyMs.p50}/` +
      `${result.latencyMs.p99} ms, API CPU ${result.cpuMsPerRequest['api'] ?? 0} ms per request` +
      (failed ? `; ${failed} failed, first: ${firstError}` : ''),
  );
  return result;
}
