import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import type { FleetSummary } from '@fleet/device-sim';
import type { BenchConfig } from '../config';
import { createBenchDatabase, queryNumber } from '../harness/bench-database';
import { startBrokerProcess, type BrokerProcess, type BrokerProfile } from '../harness/broker-process';
import { nextMessage, stopChild } from '../harness/child-process';
import { perfRecord } from '../harness/perf-record';
import { watchPresence, type PresenceWatch } from '../harness/presence-watch';
import { metric, scrapeMetrics, statusBytes } from '../harness/proc-stats';
import { waitForQuietMachine } from '../harness/quiet-machine';
import { startRedisServer } from '../harness/redis-server';
import { say } from '../harness/report';
import type { FleetProcessCommand, FleetProcessMessage, FleetProcessOptions } from '../load/fleet-process';
import { PostgresCpu } from '../harness/postgres-cpu';
import { phaseCost, sampleCpu, type CpuSample } from './cpu-sample';

export interface StormOptions {
  devices: number;
  bootsPerSecond: number;
  cluster: boolean;
  settleMs: number;
  outDir: string;
  /** The dist/ folder whose broker is measured. */
  distDir: string;
  profile?: BrokerProfile;
}

/**
 * Scenario 1: N simulated devices power on, check in over HTTP and connect over MQTT to one broker process
 * (the boot storm); then every connection drops at once and esp-mqtt reconnects without a check-in (the
 * reconnect storm, what a network blip or a broker restart looks like). Online means the broker's presence
 * event arrived at a service subscriber, as the orchestrator learns it.
 */
export async function runConnectionStorm(config: BenchConfig, o: StormOptions) {
  const db = await createBenchDatabase(config, 'connect');
  const redis = await startRedisServer();
  const sql = new Client({ connectionString: db.ownerUrl });
  await sql.connect();
  let broker: BrokerProcess | undefined;
  let sim: ChildProcess | undefined;
  let presence: PresenceWatch | undefined;
  try {
    broker = await startBrokerProcess({
      distDir: o.distDir,
      path: config.PATH,
      databaseUrl: db.appUrl,
      redisUrl: redis.url,
      cluster: o.cluster,
      outDir: o.outDir,
      ...(o.profile ? { profile: o.profile } : {}),
    });
    const fleetOptions: FleetProcessOptions = {
      count: o.devices,
      otaUrl: `${broker.httpUrl}/xiaozhi/ota/`,
      bootsPerSecond: o.bootsPerSecond,
      macPrefix: '02:5b',
    };
    const child = fork(join(__dirname, '../load/fleet-process.js'), [JSON.stringify(fleetOptions)], {
      execArgv: [],
    });
    sim = child;
    let fleet: FleetSummary | undefined;
    child.on('message', (m: FleetProcessMessage) => {
      if (m.type === 'progress') fleet = m.summary;
    });
    const command = (c: FleetProcessCommand) => child.send(c);
    await nextMessage(child, 'ready');
    const watch = await watchPresence(`mqtt://127.0.0.1:${broker.ports.mqtt}`, broker.serviceSecret);
    presence = watch;
    const pids = { broker: broker.pid, redis: redis.pid, sim: child.pid! };
    const postgres = new PostgresCpu(sql, db.name);
    const progress = () =>
      say(
        `  sim connected ${fleet?.connected ?? 0}, online ${watch.online}, ` +
          `check-in failures ${fleet?.checkInFailures ?? 0}`,
      );

    await broker.collectGarbage();
    const idle = await memory(broker);
    await waitForQuietMachine();
    const perf = o.profile === 'perf' ? perfRecord(broker.pid, o.outDir) : undefined;
    say(
      `boot storm: ${o.devices} devices, cluster ${o.cluster}, boots ${o.bootsPerSecond || 'all at once'}/s`,
    );
    const bootStart = await sampleCpu(pids, postgres);
    command({ type: 'start' });
    const bootEnd = await until(
      watch,
      (w) => w.online >= o.devices,
      () => sampleCpu(pids, postgres),
      progress,
    );
    await perf?.stop();
    const rowsOnlineAt = await pollUntil(
      async () => (await queryNumber(sql, 'SELECT count(*)::int AS n FROM device WHERE online')) >= o.devices,
    );
    const peakRss = statusBytes(broker.pid, 'VmHWM');
    const simRss = statusBytes(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, o.settleMs));
    await broker.collectGarbage();
    const connected = await memory(broker);
    const afterBoot = fleet;

    await waitForQuietMachine();
    say('reconnect storm: every connection drops, esp-mqtt reconnects (no check-in)');
    const events = watch.onlineEvents;
    const reconnectStart = await sampleCpu(pids, postgres);
    command({ type: 'flap' });
    const reconnectEnd = await until(
      watch,
      (w) => w.onlineEvents >= events + o.devices && w.online >= o.devices,
      () => sampleCpu(pids, postgres),
      progress,
    );

    command({ type: 'stop' });
    const stopping = Date.now();
    await nextMessage(child, 'stopped');
    await watch.until(
      (n) => n === 0,
      () => undefined,
    );
    const allOfflineSeconds = (Date.now() - stopping) / 1000;
    const counts = {
      bootReports: await queryNumber(sql, 'SELECT count(*)::int AS n FROM boot_report'),
      connections: await queryNumber(sql, 'SELECT count(*)::int AS n FROM connection'),
      authFailures: sum(connected.metrics, 'broker_auth_failures_total'),
      checkIns: sum(connected.metrics, 'broker_ota_check_ins_total'),
    };

    return {
      devices: o.devices,
      cluster: o.cluster,
      bootsPerSecond: o.bootsPerSecond,
      boot: {
        ...phaseCost(bootStart, bootEnd, o.devices),
        rowsOnlineSeconds: secondsSince(bootStart, rowsOnlineAt),
      },
      reconnect: phaseCost(reconnectStart, reconnectEnd, o.devices),
      allOfflineSeconds,
      broker: {
        rssIdleBytes: idle.rss,
        rssConnectedBytes: connected.rss,
        rssPeakBytes: peakRss,
        rssPerConnectionBytes: Math.round((connected.rss - idle.rss) / o.devices),
        heapIdleBytes: idle.heap,
        heapConnectedBytes: connected.heap,
        heapPerConnectionBytes: Math.round((connected.heap - idle.heap) / o.devices),
        /** The same RSS from the broker's own /metrics (process_resident_memory_bytes). */
        metricsRssPerConnectionBytes: Math.round((connected.metricsRss - idle.metricsRss) / o.devices),
        logLines: broker.logs.counts,
        logSamples: broker.logs.samples,
      },
      sim: { afterBoot, rssBytes: simRss },
      rows: counts,
    };
  } finally {
    await presence?.close();
    if (sim) await stopChild(sim, 10_000);
    const code = await broker?.stop();
    if (code !== undefined && code !== 0) say(`broker exited with ${code}`);
    await sql.end();
    await redis.stop();
    await db.drop();
  }
}
export type StormResult = Awaited<ReturnType<typeof runConnectionStorm>>;

/** RSS from /proc, heap and RSS from the broker's /metrics (after a full GC). */
async function memory(broker: BrokerProcess) {
  const metrics = await scrapeMetrics(broker.metricsUrl);
  return {
    rss: statusBytes(broker.pid),
    heap: metric(metrics, 'nodejs_heap_size_used_bytes') ?? 0,
    metricsRss: metric(metrics, 'process_resident_memory_bytes') ?? 0,
    metrics,
  };
}

/** Resolves with `sample()` taken the moment `done` holds; gives up after 10 minutes. */
async function until<T>(
  watch: PresenceWatch,
  done: (w: PresenceWatch) => boolean,
  sample: () => Promise<T>,
  progress: () => void,
): Promise<T> {
  const timer = setInterval(progress, 2_000);
  let deadline: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    deadline = setTimeout(() => reject(new Error('not all devices online within 10 minutes')), 10 * 60_000);
  });
  try {
    return await Promise.race([watch.until(() => done(watch), sample).then((sampled) => sampled), timeout]);
  } finally {
    clearInterval(timer);
    clearTimeout(deadline);
  }
}

async function pollUntil(check: () => Promise<boolean>): Promise<number> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
  return Date.now();
}

const secondsSince = (from: CpuSample, at: number) => Math.round(at - from.at) / 1000;

function sum(values: Map<string, number>, name: string): number {
  let total = 0;
  for (const [key, value] of values) if (key === name || key.startsWith(`${name}{`)) total += value;
  return total;
}
