// The admin API's REST at the cost of its framework: authenticated reads, call creation at 1 and 32 in flight,
// and POST → sealed verdict one at a time, on a fresh platform (each service a process of its own from dist/,
// NODE_ENV=production), with CPU per process (`api` is the admin API).
//   npm run bench:api -- [--devices 100] [--reads 3000] [--creations 2000] [--sequential 200] [--in-flight 32]
//                        [--quiet-wait-sec 10] [--profile cpu] [--dist <dir>]
// `--dist` measures another build's services with this benchmark (a before/after in one run).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runApiBench, type ApiBenchResult } from './api/api-run';
import type { RestPhaseResult } from './api/rest-phase';
import { loadBenchConfig } from './config';
import { printResult, say, table } from './harness/report';
import { percentiles } from './platform/latency';

const PROCESSES = ['api', 'orchestrator', 'broker', 'postgres', 'redis', 'bench', 'other'];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '100' },
      reads: { type: 'string', default: '3000' },
      creations: { type: 'string', default: '2000' },
      sequential: { type: 'string', default: '200' },
      'in-flight': { type: 'string', default: '32' },
      'quiet-wait-sec': { type: 'string', default: '10' },
      profile: { type: 'string' },
      dist: { type: 'string' },
    },
  });
  const config = loadBenchConfig();
  if (values.profile !== undefined && values.profile !== 'cpu') throw new Error('--profile takes cpu');
  const result = await runApiBench(config, {
    devices: Number(values.devices),
    reads: Number(values.reads),
    creations: Number(values.creations),
    sequential: Number(values.sequential),
    inFlight: Number(values['in-flight']),
    outDir: join('/tmp', `bench-api-${process.pid}`),
    distDir: values.dist ?? join(config.root, 'dist'),
    quietWaitMs: Number(values['quiet-wait-sec']) * 1000,
    ...(values.profile === 'cpu' ? { profile: 'cpu' as const } : {}),
  });
  printResult('api', result, summary(result));
}

function summary(r: ApiBenchResult): string[] {
  const row = (ph: RestPhaseResult) => [
    ph.name,
    ph.inFlight,
    ph.requests,
    ph.failed,
    ph.perSecond,
    percentiles(ph.latencyMs),
    ...PROCESSES.map((name) => ph.cpuMsPerRequest[name] ?? 0),
  ];
  const lines = table(
    [
      'request',
      'in flight',
      'answered',
      'failed',
      'per s',
      'p50 / p95 / p99 ms',
      ...PROCESSES.map((n) => `${n} ms`),
    ],
    [...r.reads, ...r.creations].map(row),
  );
  const s = r.sealed;
  if (s) {
    lines.push(
      '',
      `POST → sealed verdict, one at a time (${s.calls} calls, ${s.verifiedPerSecond} verified/s): ` +
        `p50 / p95 / p99 ${percentiles(s.latencyMs)} ms; POST alone ${percentiles(s.enqueueMs)} ms; ` +
        `five rows ${s.sealed.withFiveRows}`,
      `  CPU ms per call: ${PROCESSES.map((n) => `${n} ${s.cpuMsPerCall[n] ?? 0}`).join(', ')}`,
    );
  }
  lines.push(
    `log lines ${JSON.stringify(r.logs)}${r.logSamples.length ? `; first: ${r.logSamples[0]}` : ''}`,
  );
  return lines;
}

main().catch((err: unknown) => {
  say((err as Error).stack ?? String(err));
  process.exit(1);
});
