// The sizing table (docs/BENCHMARKS.md §18, README "How many devices"): the platform as `npm start` runs its
// services, one fresh platform per fleet size, each step reporting power-on to all discovered, CPU and memory per
// device per process after GC, the database's size, fleet-wide reads and verified set_volume per second, a lone
// call's latency under the connected fleet, and the first resource to run out.
//   npm run bench:sizing -- [--steps 1000,5000,10000,20000] [--boot-rate 250] [--rounds 2] [--lone-calls 300]
//                           [--quiet-wait-sec 60] [--dist <dir>] [--heap-snapshots]
//                           [--semi-space-mb <MB>]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadBenchConfig } from './config';
import { openFilesLimit } from './harness/proc-stats';
import { machine, printResult, say } from './harness/report';
import { runSizingStep, type SizingStep } from './sizing/sizing-step';
import { sizingTable, type SizingRow } from './sizing/sizing-table';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      steps: { type: 'string', default: '1000,5000,10000,20000' },
      'boot-rate': { type: 'string', default: '250' },
      rounds: { type: 'string', default: '2' },
      'lone-calls': { type: 'string', default: '300' },
      'quiet-wait-sec': { type: 'string', default: '60' },
      dist: { type: 'string' },
      /** Heap snapshots of broker and orchestrator at 0 devices and with each step's fleet discovered. */
      'heap-snapshots': { type: 'boolean', default: false },
      /** V8's largest semi-space of the services in MB (the young generation a burst grows and GC keeps). */
      'semi-space-mb': { type: 'string' },
    },
  });
  const config = loadBenchConfig();
  const steps: SizingStep[] = [];
  let stopped: string | undefined;
  for (const devices of values.steps.split(',').map(Number)) {
    if (!Number.isInteger(devices) || devices <= 0) throw new Error(`--steps: ${values.steps}`);
    // A broker holds a descriptor per device; past the hard limit this process may give it, the step cannot run.
    const hard = openFilesLimit(process.pid, 'hard');
    if (hard !== undefined && devices + 500 > hard) {
      stopped = `${devices} devices not run: the open-files hard limit here is ${hard} (raising it needs a privilege this machine does not give)`;
      say(stopped);
      break;
    }
    try {
      steps.push(
        await runSizingStep(config, {
          devices,
          bootsPerSecond: Number(values['boot-rate']),
          rounds: Number(values.rounds),
          loneCalls: Number(values['lone-calls']),
          outDir: join('/tmp', `bench-sizing-${process.pid}`, String(devices)),
          distDir: values.dist ?? join(config.root, 'dist'),
          quietWaitMs: Number(values['quiet-wait-sec']) * 1000,
          heapSnapshots: values['heap-snapshots'],
          ...(values['semi-space-mb'] ? { semiSpaceMb: Number(values['semi-space-mb']) } : {}),
        }),
      );
    } catch (err) {
      // The steps measured so far are still the answer up to here: print them, and say where it stopped.
      stopped = `${devices} devices failed: ${(err as Error).message}`;
      say((err as Error).stack ?? stopped);
      break;
    }
  }
  const m = machine();
  printResult('sizing', steps, [
    `Sizing on ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB, load average ${m.loadAverage1m} at the end, ${m.date}`,
    '',
    ...sizingTable(steps.map(row)),
    ...(stopped ? ['', `Stopped: ${stopped}`] : []),
  ]);
  if (stopped && steps.length === 0) process.exitCode = 1;
}

function row(s: SizingStep): SizingRow {
  return {
    devices: s.devices,
    discoveredSeconds: s.startup.seconds,
    cpuMsPerDevice: s.startup.cpuMsPerDevice,
    rssPerDevice: Object.fromEntries(Object.entries(s.startup.memory).map(([k, v]) => [k, v.perDevice])),
    rssDiscovered: Object.fromEntries(Object.entries(s.startup.memory).map(([k, v]) => [k, v.discovered])),
    heapPerDevice: s.heapPerDevice,
    databaseBytes: s.databaseBytes,
    readsPerSecond: s.reads.callsPerSecond,
    verifiedSetVolumePerSecond: s.setVolume.verifiedPerSecond,
    lone: s.lone.latencyMs,
    firstLimit: s.limit.reason,
  };
}

main().catch((err: unknown) => {
  say((err as Error).stack ?? String(err));
  process.exit(1);
});
