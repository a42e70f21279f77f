// Admin API reads before and after a change, in one run: the same database and key, an API built from each
// checkout started in turn (A B A B ...), each endpoint asked one request after another. Per request: latency
// and the API process's CPU (from /proc), which is what the database client changes.
//   npm run build && node dist/tools/bench/src/api-reads.bench.js --roots <checkout A>,<checkout B> [--requests 2000]
//   (each checkout built with `npm run build`; Postgres and Redis on localhost)
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startApiProcess } from './device-list/api-process';
import { createBenchFleet } from './device-list/bench-fleet';
import { loadDeviceListBenchConfig } from './device-list/config';
import { summarise } from './device-list/stats';
import { cpuSeconds } from './harness/proc-stats';
import { printResult, round, table } from './harness/report';

interface Reading {
  root: string;
  round: number;
  path: string;
  p50Ms: number;
  p95Ms: number;
  apiCpuMsPerRequest: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      roots: { type: 'string' },
      requests: { type: 'string', default: '2000' },
      rounds: { type: 'string', default: '2' },
    },
  });
  const config = loadDeviceListBenchConfig();
  const roots = (values.roots ?? config.root).split(',');
  const requests = Number(values.requests);
  const fleet = await createBenchFleet(config.BENCH_POSTGRES_URL, 1000, config.root);
  const deviceId = 'a0:00:00:00:00:03';
  const paths = [
    `/api/v1/devices/${deviceId}`,
    `/api/v1/devices/${deviceId}/tools`,
    '/api/v1/groups',
    '/api/v1/operators',
  ];
  const readings: Reading[] = [];
  try {
    for (let r = 1; r <= Number(values.rounds); r++) {
      for (const root of roots) {
        const api = await startApiProcess(root, {
          DATABASE_URL: fleet.appUrl,
          REDIS_URL: config.REDIS_URL,
          QUEUE_PREFIX: 'bench',
          PATH: config.PATH,
        });
        try {
          for (const path of paths)
            readings.push({ root, round: r, path, ...(await ask(api, fleet.apiKey, path, requests)) });
        } finally {
          await api.stop();
        }
      }
    }
  } finally {
    await fleet.drop();
  }
  printResult('api-reads', readings, [
    `Admin API reads, ${requests} requests per endpoint one after another, ${values.rounds} rounds alternating checkouts`,
    '',
    ...table(
      ['checkout', 'round', 'GET', 'p50 ms', 'p95 ms', 'API CPU ms/request'],
      readings.map((x) => [x.root, x.round, x.path, x.p50Ms, x.p95Ms, x.apiCpuMsPerRequest]),
    ),
  ]);
}

async function ask(
  api: { baseUrl: string; pid: number },
  key: string,
  path: string,
  requests: number,
): Promise<Omit<Reading, 'root' | 'round' | 'path'>> {
  const get = async () => {
    const response = await fetch(`${api.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  };
  for (let i = 0; i < 200; i++) await get();
  const latencies: number[] = [];
  const cpuBefore = cpuSeconds(api.pid);
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    await get();
    latencies.push(performance.now() - started);
  }
  const cpu = cpuSeconds(api.pid) - cpuBefore;
  const s = summarise(latencies);
  return {
    p50Ms: round(s.p50, 2),
    p95Ms: round(s.p95, 2),
    apiCpuMsPerRequest: round((cpu * 1000) / requests, 3),
  };
}

main().catch((err: unknown) => {
  process.stderr.write(`api-reads benchmark failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
