import { performance } from 'node:perf_hooks';
import { round } from '../harness/report';

export interface QueryTiming {
  name: string;
  calls: number;
  /** Wall time per call, one call after another (one connection's round trip included). */
  msPerCall: number;
  /** This process's CPU per call: what the client library costs, beside Postgres's own work. */
  cpuUsPerCall: number;
}

/** Runs `call` `calls` times in sequence after a warm-up, and says what one call cost. */
export async function timeCalls(
  name: string,
  calls: number,
  call: () => Promise<unknown>,
): Promise<QueryTiming> {
  for (let i = 0; i < Math.min(500, calls); i++) await call();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await call();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    name,
    calls,
    msPerCall: round(ms / calls, 3),
    cpuUsPerCall: round((used.user + used.system) / calls, 1),
  };
}
