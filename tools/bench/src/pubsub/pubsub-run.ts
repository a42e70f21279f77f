import { fork } from 'node:child_process';
import { join } from 'node:path';
import { nextMessage, stopChild } from '../harness/child-process';
import { cpuSeconds, machineBusySeconds } from '../harness/proc-stats';
import { waitForQuietMachine } from '../harness/quiet-machine';
import { round } from '../harness/report';
import type { Counts, PubSubMessage, PubSubOptions } from '../load/pubsub-process';

export interface Target {
  name: string;
  /** Processes whose CPU is reported for this target (the broker, its Redis …), by label. */
  pids: Record<string, number>;
  options: Pick<PubSubOptions, 'mode' | 'mqtt' | 'otaUrl' | 'subscriberAuth'>;
}

export type LoadShape = Pick<
  PubSubOptions,
  'publishers' | 'subscribers' | 'window' | 'warmupMs' | 'measureMs' | 'payload'
>;

/** One measured run of the load process against one broker. */
export async function runPubSub(target: Target, shape: LoadShape) {
  const options: PubSubOptions = { ...target.options, ...shape };
  const load = fork(join(__dirname, '../load/pubsub-process.js'), [JSON.stringify(options)], {
    execArgv: [],
  });
  try {
    await nextMessage(load, 'ready', 180_000);
    const pids = { ...target.pids, load: load.pid! };
    const cpu = () => ({
      ...Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)])),
      machine: machineBusySeconds(),
    });
    await waitForQuietMachine();
    const started = nextMessage<Extract<PubSubMessage, { type: 'window' }>>(load, 'window');
    load.send({ type: 'run' });
    const start = await started;
    const cpuStart = cpu();
    const end = await nextMessage<Extract<PubSubMessage, { type: 'window' }>>(load, 'window');
    const cpuEnd = cpu();
    const done = await nextMessage<Extract<PubSubMessage, { type: 'done' }>>(load, 'done');
    return summarise(target.name, shape, start.counts, end.counts, cpuStart, cpuEnd, done);
  } finally {
    await stopChild(load, 10_000);
  }
}

function summarise(
  name: string,
  shape: LoadShape,
  start: Counts,
  end: Counts,
  cpuStart: Record<string, number>,
  cpuEnd: Record<string, number>,
  done: Extract<PubSubMessage, { type: 'done' }>,
) {
  const seconds = (end.at - start.at) / 1000;
  const delivered = end.received - start.received;
  const published = end.published - start.published;
  const cores = (k: string) => (cpuEnd[k]! - cpuStart[k]!) / seconds;
  const ours = Object.keys(cpuEnd).filter((k) => k !== 'machine');
  const cpuShare: Record<string, number> = Object.fromEntries(ours.map((k) => [k, round(cores(k), 3)]));
  // Whatever else ran meanwhile (another session's tests): a large figure here means a low result.
  cpuShare['other'] = round(Math.max(0, cores('machine') - ours.reduce((sum, k) => sum + cores(k), 0)), 3);
  const brokerCpu = (cpuEnd['broker']! - cpuStart['broker']!) / seconds;
  return {
    target: name,
    publishers: shape.publishers,
    subscribers: shape.subscribers,
    window: shape.window,
    payloadBytes: Buffer.byteLength(shape.payload),
    seconds: round(seconds),
    publishedPerSecond: Math.round(published / seconds),
    deliveredPerSecond: Math.round(delivered / seconds),
    /** Cores used (1.0 = one core busy) per process over the measured window. */
    cpuCores: cpuShare,
    brokerCpuMicrosPerDelivery: delivered > 0 ? round((brokerCpu * seconds * 1e6) / delivered, 1) : null,
    lost: done.lost,
    verified: done.verified,
    ...(done.firstError ? { firstError: done.firstError } : {}),
  };
}
export type PubSubResult = Awaited<ReturnType<typeof runPubSub>>;
