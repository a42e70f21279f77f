// Past one node (docs/BENCHMARKS.md §16, docs/SCALING.md): the same fleet and calls through one broker and one
// orchestrator, then through broker and orchestrator replicas (brokers in cluster mode over Redis, orchestrators
// sharing the call partitions by lease), with one orchestrator killed during a phase. Every call must be sealed.
//   npm run bench:replicas -- [--layouts 1x1,2x2] [--devices 2000] [--rounds 2] [--boot-rate 400]
//                             [--lease-ttl-ms 3000] [--kill-after-ms 1500] [--quiet-wait-sec 60] [--dist <dir>]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadBenchConfig } from './config';
import { printResult, say, table } from './harness/report';
import { percentiles } from './platform/latency';
import { byKind, runReplicas, type ReplicasResult } from './replicas/replicas-run';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      layouts: { type: 'string', default: '1x1,2x2' },
      devices: { type: 'string', default: '2000' },
      rounds: { type: 'string', default: '2' },
      'boot-rate': { type: 'string', default: '400' },
      'lease-ttl-ms': { type: 'string', default: '3000' },
      'kill-after-ms': { type: 'string', default: '1500' },
      'quiet-wait-sec': { type: 'string', default: '60' },
      dist: { type: 'string' },
    },
  });
  const config = loadBenchConfig();
  const results: ReplicasResult[] = [];
  for (const layout of values.layouts.split(',')) {
    const [brokers, orchestrators] = layout.split('x').map(Number);
    if (!brokers || !orchestrators) throw new Error(`a layout is <brokers>x<orchestrators>, not ${layout}`);
    results.push(
      await runReplicas(config, {
        brokers,
        orchestrators,
        devices: Number(values.devices),
        bootsPerSecond: Number(values['boot-rate']),
        rounds: Number(values.rounds),
        outDir: join('/tmp', `bench-replicas-${process.pid}`, layout),
        distDir: values.dist ?? join(config.root, 'dist'),
        quietWaitMs: Number(values['quiet-wait-sec']) * 1000,
        leaseTtlMs: Number(values['lease-ttl-ms']),
        killAfterMs: Number(values['kill-after-ms']),
      }),
    );
  }
  printResult('replicas', results, summary(results));
}

function summary(results: ReplicasResult[]): string[] {
  const kinds = ['broker', 'orchestrator', 'postgres', 'redis', 'sim'];
  return [
    ...table(
      ['layout', 'devices', 'all discovered', ...kinds.map((k) => `${k} ms/dev`)],
      results.map((r) => [
        `${r.brokers}×${r.orchestrators}`,
        r.devices,
        `${r.startup.seconds} s`,
        ...kinds.map((k) => r.startup.cpuMsPerDevice[k] ?? 0),
      ]),
    ),
    '',
    ...table(
      [
        'layout: phase',
        'calls',
        'calls/s',
        'verified/s',
        'p50 / p95 / p99 ms',
        'max ms',
        'verdicts',
        '5 rows',
        ...kinds,
      ],
      results.flatMap((r) =>
        r.phases.map((ph) => {
          const cpu = byKind(ph.cpuMsPerCall);
          return [
            `${r.brokers}×${r.orchestrators}: ${ph.name}`,
            ph.calls,
            ph.callsPerSecond,
            ph.verifiedPerSecond,
            percentiles(ph.latencyMs),
            ph.latencyMs.max,
            Object.entries(ph.sealed.verdicts)
              .map(([v, n]) => `${v} ${n}`)
              .join(', '),
            ph.sealed.withFiveRows,
            ...kinds.map((k) => cpu[k] ?? 0),
          ];
        }),
      ),
    ),
    '',
    ...results.map(
      (r) =>
        `${r.brokers}×${r.orchestrators}: lost ${r.lost}; most CPU per call: ${r.busiest.kind} ` +
        `${r.busiest.cpuMsPerCall} of ${r.busiest.ofAllPerCall} ms`,
    ),
  ];
}

main().catch((err: unknown) => {
  say((err as Error).stack ?? String(err));
  process.exit(1);
});
