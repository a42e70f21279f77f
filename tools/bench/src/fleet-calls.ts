// Scenario 2 (docs/BENCHMARKS.md §2): fleet-wide calls with evidence persisted. The broker, the orchestrator and the simulated
// fleet run as separate processes from dist/ (NODE_ENV=production); calls are asked for as the API asks for them
// and count once their verdict is sealed with its five evidence rows committed.
//   npm run bench:fleet-calls -- [--devices 1000,5000] [--rounds 3] [--sequential 1000] [--rate 200]
//                                [--rate-seconds 30] [--boot-rate 1000] [--quiet-wait-sec 120] [--profile cpu|perf]
//                                [--via producer|rest] [--posts-in-flight 64] [--dist <dir>]
// `--via rest` asks for every call as an operator does, `POST /api/v1/devices/:id/calls` with an API key, at most
// `--posts-in-flight` requests open at once (the admin API is started too and its CPU reported as `api`); `--dist`
// measures another build's services.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runFleetCalls, type FleetCallsResult } from './calls/fleet-calls-run';
import { loadBenchConfig } from './config';
import { kb, printResult, round, say, table } from './harness/report';
import { percentiles } from './platform/latency';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '1000,5000' },
      rounds: { type: 'string', default: '3' },
      sequential: { type: 'string', default: '1000' },
      rate: { type: 'string', default: '200' },
      'rate-seconds': { type: 'string', default: '30' },
      'boot-rate': { type: 'string', default: '1000' },
      profile: { type: 'string' },
      via: { type: 'string', default: 'producer' },
      'posts-in-flight': { type: 'string', default: '64' },
      dist: { type: 'string' },
      /** The machine is shared: how long each phase waits for it to be quiet before measuring anyway. */
      'quiet-wait-sec': { type: 'string', default: '120' },
    },
  });
  const config = loadBenchConfig();
  const profile = (['cpu', 'perf'] as const).find((p) => p === values.profile);
  const via = (['producer', 'rest'] as const).find((v) => v === values.via);
  if (!via) throw new Error(`--via must be producer or rest, not ${values.via}`);
  const results: FleetCallsResult[] = [];
  for (const devices of values.devices.split(',').map(Number)) {
    const outDir = join('/tmp', `bench-fleet-calls-${process.pid}`, String(devices));
    results.push(
      await runFleetCalls(config, {
        devices,
        bootsPerSecond: Number(values['boot-rate']),
        rounds: Number(values.rounds),
        sequential: Number(values.sequential),
        rate: Number(values.rate),
        rateSeconds: Number(values['rate-seconds']),
        outDir,
        distDir: values.dist ?? join(config.root, 'dist'),
        via,
        postsInFlight: Number(values['posts-in-flight']),
        quietWaitMs: Number(values['quiet-wait-sec']) * 1000,
        ...(profile ? { profile } : {}),
      }),
    );
  }
  printResult('fleet-calls', results, summary(results));
}

function summary(results: FleetCallsResult[]): string[] {
  const cpu = (r: Record<string, number>, name: string) => `${r[name] ?? 0}`;
  return [
    'Fleet-wide calls: a call counts when its verdict is sealed and its five evidence rows are committed; latency',
    'is from just before the request (row + BullMQ job) to the sealed event on fleet:events (server: sealed_at - created_at).',
    '',
    ...table(
      [
        'start-up (connect + discovery)',
        'all discovered',
        'broker CPU/dev',
        'orch. CPU/dev',
        'broker+orch.',
        'RSS/dev b+o',
        'postgres',
        'redis',
        'sim',
      ],
      results.map((r) => [
        `${r.devices} devices`,
        `${r.startup.seconds} s`,
        `${cpu(r.startup.cpuMsPerDevice, 'broker')} ms`,
        `${cpu(r.startup.cpuMsPerDevice, 'orchestrator')} ms`,
        `${r.startup.servicesCpuMsPerDevice} ms`,
        kb(r.startup.servicesBytesPerDevice),
        `${cpu(r.startup.cpuMsPerDevice, 'postgres')} ms`,
        `${cpu(r.startup.cpuMsPerDevice, 'redis')} ms`,
        `${cpu(r.startup.cpuMsPerDevice, 'sim')} ms`,
      ]),
    ),
    '',
    ...table(
      [
        'phase',
        'calls',
        'calls/s',
        'verified/s',
        'p50 / p95 / p99 ms',
        'server p50 / p99',
        'to sending p50',
        'sending to sealed p50',
        'verdicts',
        '5 rows',
        'prereq.',
      ],
      results.flatMap((r) =>
        r.phases.map((ph) => [
          `${r.devices}: ${ph.name}`,
          ph.calls,
          ph.callsPerSecond,
          ph.verifiedPerSecond,
          percentiles(ph.latencyMs),
          `${ph.sealed.serverMs.p50} / ${ph.sealed.serverMs.p99}`,
          ph.sealed.toSendingMs.p50,
          ph.sealed.sendingToSealedMs.p50,
          Object.entries(ph.sealed.verdicts)
            .map(([v, n]) => `${v} ${n}`)
            .join(', '),
          ph.sealed.withFiveRows,
          ph.sealed.prerequisites,
        ]),
      ),
    ),
    '',
    ...table(
      [
        'CPU ms per call',
        'broker',
        'orchestrator',
        'postgres',
        'redis',
        'sim',
        'api',
        'bench (producer)',
        'other',
        'evidence rows/s',
      ],
      results.flatMap((r) =>
        r.phases.map((ph) => [
          `${r.devices}: ${ph.name}`,
          cpu(ph.cpuMsPerCall, 'broker'),
          cpu(ph.cpuMsPerCall, 'orchestrator'),
          cpu(ph.cpuMsPerCall, 'postgres'),
          cpu(ph.cpuMsPerCall, 'redis'),
          cpu(ph.cpuMsPerCall, 'sim'),
          cpu(ph.cpuMsPerCall, 'api'),
          cpu(ph.cpuMsPerCall, 'bench'),
          cpu(ph.cpuMsPerCall, 'other'),
          round(ph.evidenceRowsPerSecond, 0),
        ]),
      ),
    ),
    ...results.map(
      (r) =>
        `${r.devices} devices: log lines ${JSON.stringify(r.logs)}${r.logSamples.length ? `; first: ${r.logSamples[0]}` : ''}`,
    ),
  ];
}

main().catch((err: unknown) => {
  say((err as Error).stack ?? String(err));
  process.exit(1);
});
