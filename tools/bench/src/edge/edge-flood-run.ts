import { readdirSync } from 'node:fs';
import type { BenchConfig } from '../config';
import type { BenchDatabase } from '../harness/bench-database';
import { startBrokerProcess } from '../harness/broker-process';
import type { BenchRedis } from '../harness/redis-server';
import { round, say } from '../harness/report';
import { HALF_SENT, HalfSentFlood, type FloodTarget } from './half-sent-flood';
import { probeBoot } from './probe-boot';

export interface EdgeFloodOptions {
  label: string;
  /** The dist/ folder whose broker is measured. */
  distDir: string;
  outDir: string;
  openFiles: number;
  /** Flood connections the stranger keeps open (each the broker closes is opened again). */
  flood: number;
  /** The listeners flooded, each with its own half-sent bytes. */
  targets: FloodTarget[];
  /** New flood connections per second at most. */
  rate: number;
  /** Flood connections come from 127.0.0.2 … 127.0.0.<addresses + 1>; the probing device from 127.0.0.1. */
  addresses: number;
  floodMs: number;
  /** After the flood stops: how long to wait for the broker to cut what it still holds. */
  patienceMs: number;
}

interface Probe {
  ok: boolean;
  ms: number;
  at: number;
}

export interface EdgeFloodResult {
  label: string;
  targets: FloodTarget[];
  flood: number;
  rate: number;
  addresses: number;
  openFiles: number;
  floodSeconds: number;
  /** Flood connections opened in all while the flood lasted (replacements included). */
  floodConnections: number;
  /** Most flood connections open at once, as the flooding side sees them (the kernel's accept queue included). */
  peakFloodOpen: number;
  /** Peak descriptors of the broker process while the flood lasted. */
  peakDescriptors: number;
  /** A device's check-in then MQTT CONNECT, one after the other, while the flood lasted. */
  during: { total: number; answered: number; p50Ms: number; maxMs: number };
  /** From the flood's stop until the broker had closed its last connection (null: not within patience). */
  cutSeconds: number | null;
  /** From the flood's stop until a device's boot answered three times in a row (null: not within patience). */
  recoveredSeconds: number | null;
}

/**
 * A stranger keeps `flood` half-sent requests open (an upgrade's first lines, a check-in's, the first byte of an MQTT
 * CONNECT) against a broker process with a lowered open-file limit, while a device keeps booting (check-in, then
 * CONNECT) from another address; then the stranger stops. What the broker holds, its descriptors, whether the
 * device gets in meanwhile, and how long until everything is clear.
 */
export async function runEdgeFlood(
  config: BenchConfig,
  db: BenchDatabase,
  redis: BenchRedis,
  o: EdgeFloodOptions,
): Promise<EdgeFloodResult> {
  const broker = await startBrokerProcess({
    distDir: o.distDir,
    path: config.PATH,
    databaseUrl: db.appUrl,
    redisUrl: redis.url,
    cluster: true,
    outDir: o.outDir,
    openFiles: o.openFiles,
    // The budget as shipped (the harness raises it for the benchmarks' simulated fleets on one address); a build
    // from before the budget ignores these.
    env: { EDGE_PENDING_MAX: '4096', EDGE_PENDING_PER_ADDRESS: '256' },
  });
  const { ports } = broker;
  let peakDescriptors = 0;
  const sampler = setInterval(() => {
    try {
      peakDescriptors = Math.max(peakDescriptors, readdirSync(`/proc/${broker.pid}/fd`).length);
    } catch {
      // a descriptor closed while the folder was read; the next sample reads it
    }
  }, 100);
  const flood = new HalfSentFlood(
    o.targets.map((target) => ({ port: ports[target], bytes: HALF_SENT[target] })),
    o.addresses,
  );
  try {
    say(
      `${o.label}: ${o.flood} half-sent connections held from ${o.addresses} address(es) for ${o.floodMs} ms`,
    );
    const boot = () => probeBoot(broker.httpUrl, ports.mqtt);
    flood.start(o.flood, o.rate);
    const floodStarted = Date.now();
    const during: Probe[] = [];
    while (Date.now() - floodStarted < o.floodMs) during.push(await timed(boot));
    const peak = { descriptors: peakDescriptors, open: flood.peakOpen, opened: flood.opened };
    flood.stop();
    const stopped = Date.now();
    let cutAt: number | null = null;
    let recoveredAt: number | null = null;
    const after: Probe[] = [];
    while (Date.now() - stopped < o.patienceMs && (cutAt === null || recoveredAt === null)) {
      const probe = await timed(boot);
      after.push(probe);
      const last3 = after.slice(-3);
      if (recoveredAt === null && last3.length === 3 && last3.every((p) => p.ok)) recoveredAt = last3[0]!.at;
      if (cutAt === null && flood.open === 0) cutAt = flood.lastClosedAt;
    }
    const answered = during
      .filter((p) => p.ok)
      .map((p) => p.ms)
      .sort((a, b) => a - b);
    const sinceStop = (at: number | null) =>
      at === null ? null : round(Math.max(0, at - stopped) / 1000, 1);
    return {
      label: o.label,
      targets: o.targets,
      flood: o.flood,
      rate: o.rate,
      addresses: o.addresses,
      openFiles: o.openFiles,
      floodSeconds: round(o.floodMs / 1000, 0),
      floodConnections: peak.opened,
      peakFloodOpen: peak.open,
      peakDescriptors: peak.descriptors,
      during: {
        total: during.length,
        answered: answered.length,
        p50Ms: answered[Math.floor(answered.length / 2)] ?? 0,
        maxMs: answered[answered.length - 1] ?? 0,
      },
      cutSeconds: sinceStop(cutAt),
      recoveredSeconds: sinceStop(recoveredAt),
    };
  } finally {
    clearInterval(sampler);
    flood.destroy();
    await broker.stop();
  }
}

async function timed(run: () => Promise<boolean>): Promise<Probe> {
  const at = Date.now();
  const ok = await run();
  return { ok, ms: Date.now() - at, at };
}
