// Scenario 3b (docs/BENCHMARKS.md §17): a phased firmware rollout (a canary, then percentages, each with a soak and
// a gate on release health) over 10,000 simulated devices, through the admin API, with the broker, the orchestrator,
// the API and the fleet as separate processes from dist/. Reports upgrade dispatches per minute (the platform caps
// them at CAMPAIGN_DISPATCHES_PER_MINUTE, 10,000 by default) and minutes from approval to done, soaks included.
//   npm run bench:phased-campaign -- [--devices 10000] [--canary 10] [--soak-sec 30] [--percents 25,100]
//                                    [--in-flight 2000] [--image-kb 64] [--boot-rate 1000] [--quiet-wait-sec 120]
//                                    [--ota-retry-ms 10000]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runFirmwareCampaign, type CampaignResult } from './campaign/campaign-run';
import { loadBenchConfig } from './config';
import { kb, printResult, say, table } from './harness/report';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '10000' },
      canary: { type: 'string', default: '10' },
      'soak-sec': { type: 'string', default: '30' },
      percents: { type: 'string', default: '25,100' },
      'in-flight': { type: 'string', default: '2000' },
      'image-kb': { type: 'string', default: '64' },
      'boot-rate': { type: 'string', default: '1000' },
      'quiet-wait-sec': { type: 'string', default: '120' },
      // On a busy machine check-ins time out at power-on and the firmware's doubling retry (10, 20, 40 s …) leaves
      // a tail of devices minutes away from connecting; a shorter first retry only shortens the fleet's start-up.
      'ota-retry-ms': { type: 'string' },
    },
  });
  const config = loadBenchConfig();
  const soakS = Number(values['soak-sec']);
  const devices = Number(values.devices);
  const result = await runFirmwareCampaign(config, {
    devices,
    bootsPerSecond: Number(values['boot-rate']),
    imageBytes: Number(values['image-kb']) * 1024,
    batchSize: Math.min(devices, 10_000),
    maxInFlight: Number(values['in-flight']),
    outDir: join('/tmp', `bench-phased-campaign-${process.pid}`),
    distDir: join(config.root, 'dist'),
    quietWaitMs: Number(values['quiet-wait-sec']) * 1000,
    ...(values['ota-retry-ms'] ? { otaRetryBaseMs: Number(values['ota-retry-ms']) } : {}),
    phases: {
      canary: Number(values.canary),
      canarySoakS: soakS,
      percents: values.percents.split(',').map((p) => ({ percent: Number(p), soakS })),
    },
  });
  printResult('phased-campaign', result, summary(result, soakS));
}

function summary(r: CampaignResult, soakS: number): string[] {
  const c = r.campaign;
  const log = r.phaseLog as { name: string; outcome: string; at: string }[];
  return [
    `Phased firmware rollout over ${r.devices} devices: image ${kb(r.imageBytes)}, flash write ${r.flashWriteMs} ms;` +
      ` soaks shortened to ${soakS} s; ${r.rollout.maxInFlight} in flight at most.`,
    '',
    ...table(
      [
        'state',
        'verified',
        'failed',
        'min to last device',
        'min to done',
        'dispatches',
        'peak /60 s',
        'mean /min',
        'dispatch min',
      ],
      [
        [
          c.state,
          c.progress.verified,
          c.progress.failed,
          (c.seconds / 60).toFixed(2),
          ((r.timeline.at(-1)?.at ?? 0) / 60).toFixed(2),
          r.dispatches.calls,
          r.dispatches.peakPerMinute,
          r.dispatches.meanPerMinute,
          r.dispatches.minutes,
        ],
      ],
    ),
    '',
    `gates: ${log.map((e) => `${e.name} ${e.outcome} at ${e.at.slice(11, 19)}`).join('; ') || 'none'}`,
    `running the new version per the database: ${r.runningNewVersion}; call verdicts ${JSON.stringify(r.verdicts)}`,
    `machine busy before the campaign: ${r.machineBusyBefore} (1 = one core)`,
    ...(c.stateReason ? [`campaign: ${c.stateReason}`] : []),
  ];
}

main().catch((err: unknown) => {
  say((err as Error).stack ?? String(err));
  process.exit(1);
});
