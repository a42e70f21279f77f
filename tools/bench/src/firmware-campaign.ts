// Scenario 3 (docs/BENCHMARKS.md §3): a firmware campaign over 5,000 simulated devices, through the admin API as an operator
// runs one, with the broker, the orchestrator, the API and the fleet as separate processes from dist/. The image
// is small (64 KB by default, real ones are 2–4 MB): the figure is the platform's pace, not the network's.
//   npm run bench:firmware-campaign -- [--devices 5000] [--image-kb 64] [--batch 500] [--in-flight 500]
//                                       [--boot-rate 1000] [--quiet-wait-sec 120]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runFirmwareCampaign, type CampaignResult } from './campaign/campaign-run';
import { loadBenchConfig } from './config';
import { kb, printResult, say, table } from './harness/report';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '5000' },
      'image-kb': { type: 'string', default: '64' },
      batch: { type: 'string', default: '500' },
      'in-flight': { type: 'string', default: '500' },
      'boot-rate': { type: 'string', default: '1000' },
      'quiet-wait-sec': { type: 'string', default: '120' },
    },
  });
  const config = loadBenchConfig();
  const result = await runFirmwareCampaign(config, {
    devices: Number(values.devices),
    bootsPerSecond: Number(values['boot-rate']),
    imageBytes: Number(values['image-kb']) * 1024,
    batchSize: Number(values.batch),
    maxInFlight: Number(values['in-flight']),
    outDir: join('/tmp', `bench-firmware-campaign-${process.pid}`),
    distDir: join(config.root, 'dist'),
    quietWaitMs: Number(values['quiet-wait-sec']) * 1000,
  });
  printResult('firmware-campaign', result, summary(result));
}

function summary(r: CampaignResult): string[] {
  const c = r.campaign;
  const cpu = (name: string) => `${r.cpuMsPerDevice[name] ?? 0}`;
  return [
    `Firmware campaign over ${r.devices} devices: image ${kb(r.imageBytes)} (small; real images are 2-4 MB), flash`,
    `write ${r.flashWriteMs} ms (the firmware's 15 s for ~3 MB, in proportion); every other device delay is the firmware's.`,
    '',
    ...table(
      [
        'campaign',
        'state',
        'verified',
        'failed',
        'skipped',
        'seconds',
        'devices/min',
        'steady /min',
        'max in flight',
      ],
      [
        [
          `batch ${r.rollout.batchSize}, ${r.rollout.maxInFlight} in flight`,
          c.state,
          c.progress.verified,
          c.progress.failed,
          c.progress.skipped,
          c.seconds.toFixed(1),
          r.devicesPerMinute,
          r.steadyDevicesPerMinute ?? '-',
          c.inProgressMax,
        ],
      ],
    ),
    '',
    `running the new version per the database: ${r.runningNewVersion}; upgrades the devices did: ${r.simUpgrades};` +
      ` call verdicts ${JSON.stringify(r.verdicts)}, with five evidence rows ${r.callsWithFiveRows}`,
    '',
    ...table(
      ['CPU ms per device', 'broker', 'orchestrator', 'admin API', 'postgres', 'redis', 'sim', 'other'],
      [
        [
          'campaign',
          cpu('broker'),
          cpu('orchestrator'),
          cpu('api'),
          cpu('postgres'),
          cpu('redis'),
          cpu('sim'),
          cpu('other'),
        ],
      ],
    ),
    ...(c.stateReason ? [`campaign: ${c.stateReason}`] : []),
  ];
}

main().catch((err: unknown) => {
  say((err as Error).stack ?? String(err));
  process.exit(1);
});
