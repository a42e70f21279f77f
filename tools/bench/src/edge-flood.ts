// The device edge's connection budget under a flood of half-sent requests (docs/RELIABILITY.md, "The connection
// budget"): a broker process with a lowered open-file limit; a stranger keeps thousands of connections open that
// never finish their request, from one address and then from many, while a device keeps booting (check-in, then
// MQTT CONNECT) from another; then the stranger stops.
//   npm run bench:edge-flood -- [--open-files 4096] [--flood 12000] [--rate 2000] [--seconds 30] [--addresses 200]
//                                [--targets link,http,mqtt,ws] [--broker-dist <dir>] [--label <name>]
// `--broker-dist` measures another build (e.g. one from before the budget) with the same flood.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadBenchConfig } from './config';
import { createBenchDatabase } from './harness/bench-database';
import { startRedisServer } from './harness/redis-server';
import { printResult, say, table } from './harness/report';
import { runEdgeFlood, type EdgeFloodResult } from './edge/edge-flood-run';

const optionsSchema = z.object({
  'open-files': z.coerce.number().int().min(256),
  flood: z.coerce.number().int().positive(),
  rate: z.coerce.number().int().positive(),
  seconds: z.coerce.number().positive(),
  addresses: z.coerce.number().int().min(2).max(250),
  targets: z
    .string()
    .transform((list) => list.split(','))
    .pipe(z.array(z.enum(['link', 'http', 'mqtt', 'ws'])).min(1)),
  'broker-dist': z.string().optional(),
  label: z.string(),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'open-files': { type: 'string', default: '4096' },
      flood: { type: 'string', default: '12000' },
      rate: { type: 'string', default: '2000' },
      seconds: { type: 'string', default: '30' },
      addresses: { type: 'string', default: '200' },
      targets: { type: 'string', default: 'link,http,mqtt,ws' },
      'broker-dist': { type: 'string' },
      label: { type: 'string', default: 'this build' },
    },
  });
  const o = optionsSchema.parse(values);
  const config = loadBenchConfig();
  const outDir = join(config.root, 'dist/bench/edge-flood');
  const db = await createBenchDatabase(config, 'edge');
  const redis = await startRedisServer();
  const results: EdgeFloodResult[] = [];
  try {
    for (const addresses of [1, o.addresses]) {
      results.push(
        await runEdgeFlood(config, db, redis, {
          label: `${o.label}, ${addresses === 1 ? 'one address' : `${addresses} addresses`}`,
          distDir: o['broker-dist'] ?? join(config.root, 'dist'),
          outDir,
          openFiles: o['open-files'],
          flood: o.flood,
          rate: o.rate,
          targets: o.targets,
          addresses,
          floodMs: o.seconds * 1000,
          patienceMs: 150_000,
        }),
      );
    }
  } finally {
    await redis.stop();
    await db.drop();
  }
  say(`logs in ${outDir}`);
  printResult('edge-flood', results, [
    `a stranger holds ${o.flood} half-sent connections (${o.targets.join(', ')}; at most ` +
      `${o.rate} new a second) for ${o.seconds} s against a broker with ${o['open-files']} open files, while a ` +
      'device boots again and again from another address; then stops',
    ...table(
      [
        'run',
        'flood opened',
        'flood open (peak)',
        'broker fds (peak)',
        'boots answered',
        'p50 / max ms',
        'cut after stop (s)',
        'recovered after stop (s)',
      ],
      results.map((r) => [
        r.label,
        r.floodConnections,
        r.peakFloodOpen,
        r.peakDescriptors,
        `${r.during.answered} / ${r.during.total}`,
        `${r.during.p50Ms} / ${r.during.maxMs}`,
        r.cutSeconds ?? '> patience',
        r.recoveredSeconds ?? '> patience',
      ]),
    ),
  ]);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
