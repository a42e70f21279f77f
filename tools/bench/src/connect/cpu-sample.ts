import { PostgresCpu } from '../harness/postgres-cpu';
import { cpuSeconds, cpuTimes, machineBusySeconds } from '../harness/proc-stats';
import { round } from '../harness/report';

/** CPU seconds used so far by each process of a storm, and by the whole machine. */
export interface CpuSample {
  at: number;
  machine: number;
  broker: number;
  brokerSystem: number;
  postgres: Map<number, number>;
  /** Postgres transactions committed in the run's database (statistics lag by up to a second). */
  commits: number;
  redis: number;
  sim: number;
}

type Counted = Exclude<keyof CpuSample, 'at' | 'postgres' | 'commits'>;

export async function sampleCpu(
  pids: { broker: number; redis: number; sim: number },
  postgres: PostgresCpu,
): Promise<CpuSample> {
  const now = {
    at: Date.now(),
    machine: machineBusySeconds(),
    broker: cpuSeconds(pids.broker),
    brokerSystem: cpuTimes(pids.broker).system,
    redis: cpuSeconds(pids.redis),
    sim: cpuSeconds(pids.sim),
  };
  return { ...now, postgres: await postgres.sample(), commits: await postgres.commits() };
}

export interface PhaseCost {
  seconds: number;
  /** Postgres transactions per device (one-row statements cost one each; batches share one). */
  commitsPerDevice: number;
  /** CPU milliseconds per device, by process. */
  cpuMsPerDevice: Record<'broker' | 'brokerSystem' | 'postgres' | 'redis' | 'sim', number>;
  /** CPU seconds of the whole phase, by process; `other` is what the rest of the machine used meanwhile. */
  cpuSeconds: Record<'broker' | 'postgres' | 'redis' | 'sim' | 'other', number>;
}

export function phaseCost(from: CpuSample, to: CpuSample, devices: number): PhaseCost {
  const pg = PostgresCpu.between(from.postgres, to.postgres);
  const d = (k: Counted | 'postgres') => (k === 'postgres' ? pg : to[k] - from[k]);
  const perDevice = (k: Counted | 'postgres') => round((d(k) * 1000) / devices, 3);
  const ours = d('broker') + pg + d('redis') + d('sim');
  return {
    seconds: round((to.at - from.at) / 1000),
    commitsPerDevice: round((to.commits - from.commits) / devices, 2),
    cpuMsPerDevice: {
      broker: perDevice('broker'),
      brokerSystem: perDevice('brokerSystem'),
      postgres: perDevice('postgres'),
      redis: perDevice('redis'),
      sim: perDevice('sim'),
    },
    cpuSeconds: {
      broker: round(d('broker')),
      postgres: round(d('postgres')),
      redis: round(d('redis')),
      sim: round(d('sim')),
      other: round(Math.max(0, d('machine') - ours)),
    },
  };
}
