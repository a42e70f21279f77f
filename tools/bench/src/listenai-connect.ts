// The connection benchmark's ListenAI fleet (DESIGN §3 "The ListenAI link"): N registered devices link to the
// broker with their tokens and are fully discovered by the orchestrator; CPU and memory per device and process.
//   npm run bench:listenai-connect -- [--devices 1000] [--connect-rate 250 (0: all at once)] [--broker-dist <dir>]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadBenchConfig } from './config';
import { kb, printResult, say, table } from './harness/report';
import { runListenAiStorm, type ListenAiStormResult } from './listenai/listenai-storm';

const optionsSchema = z.object({
  devices: z.coerce.number().int().positive(),
  'connect-rate': z.coerce.number().min(0),
  'broker-dist': z.string().optional(),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '1000' },
      'connect-rate': { type: 'string', default: '250' },
      'broker-dist': { type: 'string' },
    },
  });
  const o = optionsSchema.parse(values);
  const config = loadBenchConfig();
  const outDir = join(config.root, 'dist/bench/listenai-connect');
  const result = await runListenAiStorm(config, {
    devices: o.devices,
    connectsPerSecond: o['connect-rate'],
    outDir,
    distDir: o['broker-dist'] ?? join(config.root, 'dist'),
    quietWaitMs: 2 * 60_000,
  });
  say(`logs in ${outDir}`);
  printResult('listenai-connect', result, summary(result));
}

function summary(d: ListenAiStormResult): string[] {
  const ms = (k: string) => `${d.cpuMsPerDevice[k] ?? 0} ms`;
  const perDevice = (k: string) => kb(d.memory[k]?.perDevice ?? 0);
  return [
    `ListenAI link + full discovery: ${d.devices} devices at ${d.connectsPerSecond || 'all at once'}/s, all ` +
      `discovered in ${d.seconds} s (machine ${Math.round(d.machineBusyBefore * 100)} % busy before)`,
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
    `broker + orchestrator: CPU ${d.servicesCpuMsPerDevice} ms, memory ${kb(d.servicesBytesPerDevice)} per device; ` +
      `with Postgres and Redis ${d.serverSideCpuMsPerDevice} ms CPU`,
    `log lines ${JSON.stringify(d.logs)}${d.logSamples.length ? `; first: ${d.logSamples[0]}` : ''}`,
  ];
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
