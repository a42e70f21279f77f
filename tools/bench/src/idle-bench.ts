// What an idle platform costs: the broker, the orchestrator and the admin API (and Postgres and Redis for them)
// with a small fleet connected and discovered but nothing asked of it, CPU per second of each process.
//   npm run bench:idle -- [--devices 20] [--seconds 30] [--dist <dir>] [--profile cpu]
// `--profile cpu` writes the orchestrator's --cpu-prof (start-up and discovery included) beside its log.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadBenchConfig } from './config';
import { printResult, round, say, table } from './harness/report';
import { startBenchPlatform } from './platform/bench-platform';
import { powerOnAndDiscover } from './platform/fleet-startup';
import { wakeUps } from './harness/proc-stats';
import { costBetween, sampleCost } from './platform/process-cost';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '20' },
      seconds: { type: 'string', default: '30' },
      dist: { type: 'string' },
      profile: { type: 'string' },
    },
  });
  const config = loadBenchConfig();
  if (values.profile !== undefined && values.profile !== 'cpu') throw new Error('--profile takes cpu');
  const p = await startBenchPlatform(config, {
    label: 'idle',
    devices: Number(values.devices),
    bootsPerSecond: 50,
    macPrefix: '02:5b',
    outDir: join('/tmp', `bench-idle-${process.pid}`),
    distDir: values.dist ?? join(config.root, 'dist'),
    quietWaitMs: 5_000,
    adminApi: true,
    ...(values.profile === 'cpu' ? { orchestratorProfile: 'cpu' as const } : {}),
  });
  try {
    await powerOnAndDiscover(p);
    // Discovery's own work (and the first heartbeats after it) settle first.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    say(`idle for ${values.seconds} s`);
    const wakes = (): Record<string, number> =>
      Object.fromEntries(Object.entries(p.pids).map(([name, pid]) => [name, wakeUps(pid)]));
    const wakesFrom = wakes();
    const from = await sampleCost(p.pids, p.postgres);
    await new Promise((resolve) => setTimeout(resolve, Number(values.seconds) * 1000));
    const to = await sampleCost(p.pids, p.postgres);
    const wakesTo = wakes();
    const cost = costBetween(from, to);
    const perSecond = Object.fromEntries(
      Object.entries(cost.cpuSeconds).map(([name, s]) => [name, round((s * 1000) / cost.seconds, 2)]),
    );
    const ours = ['broker', 'orchestrator', 'api', 'postgres', 'redis'];
    const wakeUpsPerSecond = Object.fromEntries(
      Object.keys(wakesTo).map((name) => [
        name,
        round(((wakesTo[name] ?? 0) - (wakesFrom[name] ?? 0)) / cost.seconds, 1),
      ]),
    );
    const total = round(
      ours.reduce((sum, name) => sum + (perSecond[name] ?? 0), 0),
      2,
    );
    printResult(
      'idle',
      { devices: Number(values.devices), seconds: cost.seconds, perSecond, total, wakeUpsPerSecond },
      [
        `idle platform, ${values.devices} devices connected, ${cost.seconds} s: CPU ms per second`,
        ...table(
          [...ours, 'platform', 'sim', 'other'],
          [[...ours.map((n) => perSecond[n] ?? 0), total, perSecond['sim'] ?? 0, perSecond['other'] ?? 0]],
        ),
      ],
    );
  } finally {
    await p.stop();
  }
}

main().catch((err: unknown) => {
  say((err as Error).stack ?? String(err));
  process.exit(1);
});
