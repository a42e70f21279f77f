import { PostgresCpu } from '../harness/postgres-cpu';
import { cpuSeconds, machineBusySeconds, statusBytes } from '../harness/proc-stats';
import { round } from '../harness/report';

/** The processes of a platform run whose CPU and memory are reported one by one. */
export type Pids = Record<string, number>;

export interface CostSample {
  at: number;
  machine: number;
  cpu: Record<string, number>;
  postgres: Map<number, number>;
}

/** CPU seconds so far of each process (and of the run's Postgres backends), and of the whole machine. */
export async function sampleCost(pids: Pids, postgres: PostgresCpu): Promise<CostSample> {
  const cpu: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) cpu[name] = cpuSeconds(pid);
  cpu['bench'] = process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6;
  return { at: Date.now(), machine: machineBusySeconds(), cpu, postgres: await postgres.sample() };
}

export interface PhaseCost {
  seconds: number;
  /** CPU seconds by process between the two samples; `other` is the rest of the machine meanwhile. */
  cpuSeconds: Record<string, number>;
}

export function costBetween(from: CostSample, to: CostSample): PhaseCost {
  const cpuSeconds: Record<string, number> = {};
  let ours = 0;
  for (const name of Object.keys(to.cpu)) {
    const used = (to.cpu[name] ?? 0) - (from.cpu[name] ?? 0);
    cpuSeconds[name] = round(used, 3);
    ours += used;
  }
  const pg = PostgresCpu.between(from.postgres, to.postgres);
  cpuSeconds['postgres'] = round(pg, 3);
  ours += pg;
  cpuSeconds['other'] = round(Math.max(0, to.machine - from.machine - ours), 3);
  return { seconds: round((to.at - from.at) / 1000, 3), cpuSeconds };
}

/** CPU milliseconds per unit of work (a call, a device), by process. */
export function perUnitMs(cost: PhaseCost, units: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(cost.cpuSeconds).map(([name, s]) => [name, round((s * 1000) / Math.max(1, units), 3)]),
  );
}

/** Resident memory now and at its peak, by process. */
export function memoryOf(pids: Pids): Record<string, { rss: number; peak: number }> {
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [
      name,
      { rss: safeBytes(pid, 'VmRSS'), peak: safeBytes(pid, 'VmHWM') },
    ]),
  );
}

function safeBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    return statusBytes(pid, field);
  } catch {
    return 0; // the process has gone
  }
}
