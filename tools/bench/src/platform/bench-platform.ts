import { Client } from 'pg';
import type { DeviceTimings } from '@fleet/device-sim';
import type { BenchConfig } from '../config';
import { createBenchDatabase, type BenchDatabase } from '../harness/bench-database';
import { startBrokerProcess, type BrokerProcess, type BrokerProfile } from '../harness/broker-process';
import { heapSnapshotArgs } from '../harness/heap-snapshot';
import { PostgresCpu } from '../harness/postgres-cpu';
import { waitForQuietMachine } from '../harness/quiet-machine';
import { startRedisServer, type BenchRedis } from '../harness/redis-server';
import { say } from '../harness/report';
import { startAdminApiProcess, type AdminApiProcess } from './admin-api-process';
import { startOrchestratorProcess, type OrchestratorProcess } from './orchestrator-process';
import type { Pids } from './process-cost';
import { forkSimFleet, type SimFleet } from './sim-fleet';

export interface PlatformOptions {
  /** Names the run's database. */
  label: string;
  devices: number;
  /** Power-ons per second of the simulated fleet. */
  bootsPerSecond: number;
  macPrefix: string;
  /** Logs (and profiles) of the services. */
  outDir: string;
  /** The dist/ folder whose services are measured. */
  distDir: string;
  /** Device delays (short reboots and flash writes for a campaign). */
  timings?: Partial<DeviceTimings>;
  orchestratorEnv?: Record<string, string>;
  /** Profile the broker: `--cpu-prof`, `--heap-prof` (written when it stops) or `--perf-basic-prof`. */
  brokerProfile?: BrokerProfile;
  /** Profile the orchestrator: `--cpu-prof`, or `--perf-basic-prof` for `perf record`. */
  orchestratorProfile?: 'cpu' | 'perf';
  /** Start the admin API too (campaigns are created through it). */
  adminApi?: boolean;
  /** Profile the admin API (`--cpu-prof`, written when it stops), or `--perf-basic-prof`. */
  adminApiProfile?: 'cpu' | 'perf';
  adminApiEnv?: Record<string, string>;
  /** How long each phase waits for other people's work on the machine to calm down before it measures. */
  quietWaitMs: number;
  /** Lets `takeHeapSnapshot` ask the broker and the orchestrator for heap snapshots, written here. */
  heapSnapshotDir?: string;
  /** The broker's open-files limit (a fleet past the shell's own limit needs more than it inherits). */
  brokerOpenFiles?: number;
  /** Another simulated fleet than xiaozhi devices on the broker's OTA and MQTT (the ListenAI fleet). */
  startFleet?: (ctx: { broker: BrokerProcess; sql: Client }) => Promise<SimFleet>;
}

export interface BenchPlatform {
  db: BenchDatabase;
  redis: BenchRedis;
  broker: BrokerProcess;
  orchestrator: OrchestratorProcess;
  api: AdminApiProcess | undefined;
  fleet: SimFleet;
  /** The owner role on the run's database, to read what the services wrote. */
  sql: Client;
  postgres: PostgresCpu;
  /** The processes measured one by one (Postgres is measured through `postgres`). */
  pids: Pids;
  /** Waits (up to the run's quietWaitMs) for a quiet machine; returns its busy share (0..1) at the start. */
  quiet(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The platform as production runs it, each part a process of its own: a migrated database and a redis-server of
 * the run's own, the broker and the orchestrator (and the admin API) from dist/ with NODE_ENV=production, and a
 * simulated fleet (not yet powered on: the caller measures the start-up). Everything is stopped by `stop()`,
 * also when starting fails half-way.
 */
export async function startBenchPlatform(config: BenchConfig, o: PlatformOptions): Promise<BenchPlatform> {
  const stops: (() => Promise<unknown>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) {
      await stop().catch((err: unknown) => say(`stopping: ${(err as Error).message}`));
    }
  };
  try {
    const db = await createBenchDatabase(config, o.label);
    stops.push(() => db.drop());
    const redis = await startRedisServer();
    stops.push(() => redis.stop());
    const sql = new Client({ connectionString: db.ownerUrl });
    await sql.connect();
    stops.push(() => sql.end());
    const broker = await startBrokerProcess({
      distDir: o.distDir,
      path: config.PATH,
      databaseUrl: db.appUrl,
      redisUrl: redis.url,
      cluster: false,
      outDir: o.outDir,
      ...(o.brokerProfile ? { profile: o.brokerProfile } : {}),
      ...(o.brokerOpenFiles ? { openFiles: o.brokerOpenFiles } : {}),
      ...(o.heapSnapshotDir ? { nodeOptions: heapSnapshotArgs(o.heapSnapshotDir) } : {}),
    });
    stops.push(async () => {
      const code = await broker.stop();
      if (code !== 0) say(`broker exited with ${code}`);
    });
    const orchestrator = await startOrchestratorProcess({
      distDir: o.distDir,
      path: config.PATH,
      databaseUrl: db.appUrl,
      redisUrl: redis.url,
      mqttUrl: `mqtt://127.0.0.1:${broker.ports.mqtt}`,
      mqttPassword: broker.serviceSecret,
      firmwareBaseUrl: broker.httpUrl,
      outDir: o.outDir,
      ...(o.orchestratorProfile ? { profile: o.orchestratorProfile } : {}),
      ...(o.orchestratorEnv ? { env: o.orchestratorEnv } : {}),
      ...(o.heapSnapshotDir ? { nodeOptions: heapSnapshotArgs(o.heapSnapshotDir) } : {}),
    });
    stops.push(async () => {
      const code = await orchestrator.stop();
      if (code !== 0) say(`orchestrator exited with ${code}`);
    });
    let api: AdminApiProcess | undefined;
    if (o.adminApi) {
      api = await startAdminApiProcess({
        distDir: o.distDir,
        path: config.PATH,
        databaseUrl: db.appUrl,
        redisUrl: redis.url,
        publicHttpUrl: broker.httpUrl,
        outDir: o.outDir,
        ...(o.adminApiProfile ? { profile: o.adminApiProfile } : {}),
        ...(o.adminApiEnv ? { env: o.adminApiEnv } : {}),
      });
      const started = api;
      stops.push(() => started.stop());
    }
    const fleet = o.startFleet
      ? await o.startFleet({ broker, sql })
      : await forkSimFleet({
          count: o.devices,
          otaUrl: `${broker.httpUrl}/xiaozhi/ota/`,
          bootsPerSecond: o.bootsPerSecond,
          macPrefix: o.macPrefix,
          ...(o.timings ? { timings: o.timings } : {}),
        });
    // The fleet stops first: devices gone, the services have nothing left in flight.
    stops.push(() => fleet.stop());
    const pids: Pids = {
      broker: broker.pid,
      orchestrator: orchestrator.pid,
      sim: fleet.pid,
      redis: redis.pid,
      ...(api ? { api: api.pid } : {}),
    };
    return {
      db,
      redis,
      broker,
      orchestrator,
      api,
      fleet,
      sql,
      postgres: new PostgresCpu(sql, db.name),
      pids,
      quiet: () => waitForQuietMachine(0.15, o.quietWaitMs),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
