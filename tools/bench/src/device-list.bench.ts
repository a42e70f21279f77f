// Benchmark: GET /api/v1/devices at 10,000 devices, latency per page while walking the whole list by cursor.
// Run: npm run build && node dist/tools/bench/src/device-list.bench.js   (Postgres and Redis on localhost)
// Prints one JSON document on stdout, then a human summary on stderr.
import { startApiProcess } from './device-list/api-process';
import { createBenchFleet } from './device-list/bench-fleet';
import { loadDeviceListBenchConfig } from './device-list/config';
import { summarise, type LatencySummary } from './device-list/stats';

interface Scenario {
  name: string;
  query: string;
}

interface ScenarioResult extends Scenario {
  pagesPerWalk: number;
  devicesPerWalk: number;
  perPageMs: LatencySummary;
}

async function walk(
  baseUrl: string,
  key: string,
  query: string,
): Promise<{ latencies: number[]; devices: number }> {
  const latencies: number[] = [];
  let devices = 0;
  let cursor: string | null = null;
  do {
    const url = `${baseUrl}/api/v1/devices?${query}${cursor ? `&cursor=${cursor}` : ''}`;
    const started = process.hrtime.bigint();
    const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as { items: unknown[]; nextCursor: string | null };
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(body)}`);
    devices += body.items.length;
    cursor = body.nextCursor;
  } while (cursor);
  return { latencies, devices };
}

async function main(): Promise<void> {
  const config = loadDeviceListBenchConfig();
  const root = config.root;
  const fleet = await createBenchFleet(config.BENCH_POSTGRES_URL, config.BENCH_DEVICES, root);
  const api = await startApiProcess(root, {
    DATABASE_URL: fleet.appUrl,
    REDIS_URL: config.REDIS_URL,
    QUEUE_PREFIX: 'bench',
    PATH: config.PATH,
  });
  const scenarios: Scenario[] = [
    { name: 'all, 50 per page', query: 'limit=50' },
    { name: 'all, 100 per page', query: 'limit=100' },
    { name: 'all, 500 per page', query: 'limit=500' },
    { name: 'online=true, 100 per page', query: 'online=true&limit=100' },
    { name: 'board=esp-box-3, 100 per page', query: 'board=esp-box-3&limit=100' },
    { name: 'firmware=1.7.0 & online, 100 per page', query: 'firmware=1.7.0&online=true&limit=100' },
    { name: `group=${fleet.group}, 100 per page`, query: `group=${fleet.group}&limit=100` },
    {
      name: `q=${fleet.macPrefix} (MAC prefix), 100 per page`,
      query: `q=${encodeURIComponent(fleet.macPrefix)}&limit=100`,
    },
  ];
  const results: ScenarioResult[] = [];
  try {
    for (const s of scenarios) {
      const warm = await walk(api.baseUrl, fleet.apiKey, s.query);
      const latencies: number[] = [];
      for (let i = 0; i < config.BENCH_WALKS; i++)
        latencies.push(...(await walk(api.baseUrl, fleet.apiKey, s.query)).latencies);
      results.push({
        ...s,
        pagesPerWalk: warm.latencies.length,
        devicesPerWalk: warm.devices,
        perPageMs: summarise(latencies),
      });
    }
  } finally {
    await api.stop();
    await fleet.drop();
  }
  const report = {
    benchmark: 'device-list',
    devices: config.BENCH_DEVICES,
    walks: config.BENCH_WALKS,
    node: process.version,
    results,
  };
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  process.stderr.write(
    `\nGET /api/v1/devices at ${config.BENCH_DEVICES} devices (per page, ms; ${config.BENCH_WALKS} walks each)\n`,
  );
  for (const r of results) {
    const m = r.perPageMs;
    process.stderr.write(
      `  ${r.name.padEnd(44)} ${String(r.pagesPerWalk).padStart(4)} pages  p50 ${m.p50.toFixed(2).padStart(6)}  p95 ${m.p95.toFixed(2).padStart(6)}  p99 ${m.p99.toFixed(2).padStart(6)}\n`,
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`device-list benchmark failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
