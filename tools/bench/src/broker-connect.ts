// Scenario 1 (docs/BENCHMARKS.md §1): a connection storm. N simulated devices (their own process) check in over HTTP and
// connect over MQTT to one broker process started from dist/; time to all online, memory and CPU per device.
// Then the issue's target: the same fleet connected and fully discovered by an orchestrator process.
//   npm run bench:broker-connect -- [--devices 10000] [--boot-rate 500 (0: all at once)] [--cluster both|true|false]
//     [--settle-sec 3] [--profile cpu|heap|perf] [--broker-dist <another build's dist/: its broker and orchestrator>]
//     [--discovery true|false|only] [--discovery-rate 250] [--semi-space-mb <MB> (discovery run's services)]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadBenchConfig } from './config';
import { runConnectionStorm, type StormResult } from './connect/connection-storm';
import { runDiscoveryStorm, type DiscoveryStormResult } from './connect/discovery-storm';
import { kb, mb, printResult, say, table } from './harness/report';

// The target for OTA check-in, connect and full discovery, per device, broker and orchestrator together.
const TARGET = { cpuMs: 1.0, bytes: 28 * 1024 };

// A mistyped option fails here, with its name, rather than as NaN devices half-way through a run.
const optionsSchema = z.object({
  devices: z.coerce.number().int().positive(),
  'boot-rate': z.coerce.number().min(0),
  cluster: z.enum(['both', 'true', 'false']),
  'settle-sec': z.coerce.number().min(0),
  profile: z.enum(['cpu', 'heap', 'perf']).optional(),
  'broker-dist': z.string().optional(),
  discovery: z.enum(['true', 'false', 'only']),
  'discovery-rate': z.coerce.number().min(0),
  'semi-space-mb': z.coerce.number().int().positive().optional(),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '10000' },
      'boot-rate': { type: 'string', default: '500' },
      cluster: { type: 'string', default: 'both' },
      'settle-sec': { type: 'string', default: '3' },
      profile: { type: 'string' },
      /**
       * Another build to measure (e.g. main's, to compare a change against it): its broker and, in the discovery
       * run, its orchestrator too (the storms' benchmark and simulated fleet stay this build's).
       */
      'broker-dist': { type: 'string' },
      discovery: { type: 'string', default: 'true' },
      /** Power-ons per second for the discovery run (the orchestrator discovers as devices come online). */
      'discovery-rate': { type: 'string', default: '250' },
      /** V8's largest semi-space of the discovery run's broker and orchestrator, MB (Node's default when absent). */
      'semi-space-mb': { type: 'string' },
    },
  });
  const o = optionsSchema.parse(values);
  const config = loadBenchConfig();
  const clusters = o.cluster === 'both' ? [true, false] : [o.cluster === 'true'];
  const profile = o.profile;
  const results: StormResult[] = [];
  const distDir = o['broker-dist'] ?? join(config.root, 'dist');
  for (const cluster of o.discovery === 'only' ? [] : clusters) {
    const outDir = join(config.root, 'dist/bench/broker-connect', `cluster-${cluster}`);
    results.push(
      await runConnectionStorm(config, {
        devices: o.devices,
        bootsPerSecond: o['boot-rate'],
        cluster,
        settleMs: o['settle-sec'] * 1000,
        outDir,
        distDir,
        ...(profile ? { profile } : {}),
      }),
    );
    say(`logs${profile ? ' and profile' : ''} in ${outDir}`);
  }
  let discovery: DiscoveryStormResult | undefined;
  if (o.discovery !== 'false') {
    const outDir = join(config.root, 'dist/bench/broker-connect', 'discovery');
    discovery = await runDiscoveryStorm(config, {
      devices: o.devices,
      bootsPerSecond: o['discovery-rate'],
      outDir,
      distDir,
      quietWaitMs: 2 * 60_000,
      ...(profile ? { profile } : {}),
      ...(o['semi-space-mb'] ? { semiSpaceMb: o['semi-space-mb'] } : {}),
    });
    say(`logs in ${outDir}`);
  }
  printResult('broker-connect', { storms: results, discovery, target: TARGET }, [
    ...summary(results),
    ...(discovery ? discoverySummary(discovery) : []),
  ]);
}

function discoverySummary(d: DiscoveryStormResult): string[] {
  const ms = (k: string) => `${d.cpuMsPerDevice[k] ?? 0} ms`;
  const perDevice = (k: string) => kb(d.memory[k]?.perDevice ?? 0);
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  return [
    '',
    `Connect + full discovery: ${d.devices} devices at ${d.bootsPerSecond || 'all at once'}/s, all discovered in ` +
      `${d.seconds} s (machine ${Math.round(d.machineBusyBefore * 100)} % busy before)`,
    ...table(
      ['per device', 'broker', 'orchestrator', 'postgres', 'redis', 'sim', 'other'],
      [
        ['CPU', ms('broker'), ms('orchestrator'), ms('postgres'), ms('redis'), ms('sim'), ms('other')],
        [
          'RSS',
          perDevice('broker'),
          perDevice('orchestrator'),
          '-',
          perDevice('redis'),
          perDevice('sim'),
          '-',
        ],
      ],
    ),
    `target (broker + orchestrator): CPU ${d.servicesCpuMsPerDevice} ms of ${TARGET.cpuMs} ms ` +
      `${met(d.servicesCpuMsPerDevice <= TARGET.cpuMs)}; memory ${kb(d.servicesBytesPerDevice)} of ` +
      `${kb(TARGET.bytes)} ${met(d.servicesBytesPerDevice <= TARGET.bytes)}; with Postgres and Redis ` +
      `${d.serverSideCpuMsPerDevice} ms CPU`,
    `Postgres wrote ${kb(d.postgresWrites.walBytesPerDevice)} of WAL per device (the server's, all databases); ` +
      `database ${Math.round(d.postgresWrites.databaseBytes / 1024 / 1024)} MB once all were discovered`,
    `log lines ${JSON.stringify(d.logs)}${d.logSamples.length ? `; first: ${d.logSamples[0]}` : ''}`,
  ];
}

function summary(results: StormResult[]): string[] {
  const first = results[0];
  if (!first) return [];
  const row = (r: StormResult, phase: 'boot' | 'reconnect') => {
    const p = r[phase];
    return [
      `cluster ${r.cluster}, ${phase}`,
      `${p.seconds} s`,
      `${p.cpuMsPerDevice.broker} ms`,
      `${p.cpuMsPerDevice.postgres} ms`,
      `${p.cpuMsPerDevice.redis} ms`,
      `${p.cpuMsPerDevice.sim} ms`,
      p.commitsPerDevice,
      `${p.cpuSeconds.other} s`,
    ];
  };
  return [
    `Connection storm: ${first.devices} devices; boot = OTA check-in + MQTT connect at ${first.bootsPerSecond || 'all at once'}/s, ` +
      'reconnect = every connection dropped at once, no check-in',
    ...table(
      ['run', 'all online', 'broker CPU/dev', 'postgres', 'redis', 'sim', 'PG commits/dev', 'other CPU'],
      results.flatMap((r) => [row(r, 'boot'), row(r, 'reconnect')]),
    ),
    '',
    ...table(
      ['broker memory', 'idle RSS', 'RSS with all', 'peak RSS', 'RSS/conn', 'heap/conn'],
      results.map((r) => [
        `cluster ${r.cluster}`,
        mb(r.broker.rssIdleBytes),
        mb(r.broker.rssConnectedBytes),
        mb(r.broker.rssPeakBytes),
        kb(r.broker.rssPerConnectionBytes),
        kb(r.broker.heapPerConnectionBytes),
      ]),
    ),
    ...results.map(
      (r) =>
        `cluster ${r.cluster}: presence rows all online ${r.boot.rowsOnlineSeconds} s; check-ins ${r.rows['checkIns']} ` +
        `(sim saw ${r.sim.afterBoot?.checkInFailures ?? 0} fail), boot reports ${r.rows['bootReports']}, connections ` +
        `${r.rows['connections']}, auth failures ${r.rows['authFailures']}; all offline ${r.allOfflineSeconds} s after the ` +
        `fleet stopped; broker log lines ${JSON.stringify(r.broker.logLines)}`,
    ),
  ];
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
