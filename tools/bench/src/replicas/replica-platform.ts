import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import type { BenchConfig } from '../config';
import { createBenchDatabase, type BenchDatabase } from '../harness/bench-database';
import { startBrokerProcess, type BrokerProcess } from '../harness/broker-process';
import { PostgresCpu } from '../harness/postgres-cpu';
import { waitForQuietMachine } from '../harness/quiet-machine';
import { startRedisServer, type BenchRedis } from '../harness/redis-server';
import { say } from '../harness/report';
import { startOrchestratorProcess, type OrchestratorProcess } from '../platform/orchestrator-process';
import type { Pids } from '../platform/process-cost';
import { forkSimFleet, type SimFleet } from '../platform/sim-fleet';

export interface ReplicaLayout {
  brokers: number;
  orchestrators: number;
}

export interface ReplicaPlatformOptions extends ReplicaLayout {
  devices: number;
  /** Power-ons per second of the whole fleet (shared out among the brokers' fleets). */
  bootsPerSecond: number;
  outDir: string;
  distDir: string;
  quietWaitMs: number;
  /** How long a dead orchestrator's partitions stay its own before another replica takes them. */
  leaseTtlMs: number;
}

export interface ReplicaPlatform {
  layout: ReplicaLayout;
  db: BenchDatabase;
  redis: BenchRedis;
  sql: Client;
  postgres: PostgresCpu;
  brokers: BrokerProcess[];
  orchestrators: OrchestratorProcess[];
  fleets: SimFleet[];
  pids: Pids;
  quiet(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The deployment's way past one node (DESIGN §8), on loopback: broker replicas in cluster mode over one Redis
 * (aedes-persistence-redis and the Redis emitter), orchestrator replicas sharing the call partitions by lease,
 * one Postgres. A TCP balancer in front of the brokers hands each device to one of them; here each broker gets a
 * simulated fleet of its own share, which is what the balancer's round robin amounts to.
 */
export async function startReplicaPlatform(
  config: BenchConfig,
  o: ReplicaPlatformOptions,
): Promise<ReplicaPlatform> {
  const stops: (() => Promise<unknown>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) {
      await stop().catch((err: unknown) => say(`stopping: ${(err as Error).message}`));
    }
  };
  try {
    const db = await createBenchDatabase(config, `replicas_${o.brokers}x${o.orchestrators}`);
    stops.push(() => db.drop());
    const redis = await startRedisServer();
    stops.push(() => redis.stop());
    const sql = new Client({ connectionString: db.ownerUrl });
    await sql.connect();
    stops.push(() => sql.end());
    // Every replica must accept what another one signed: the devices' MQTT passwords, eFuse wrapping, services.
    const serviceSecret = randomBytes(16).toString('hex');
    const shared = {
      DEVICE_SIGNING_KEYS: randomBytes(24).toString('hex'),
      EFUSE_WRAPPING_KEYS: randomBytes(32).toString('hex'),
      SERVICE_CREDENTIALS: `orchestrator:${serviceSecret}`,
    };
    const brokers: BrokerProcess[] = [];
    for (let b = 0; b < o.brokers; b++) {
      const broker = await startBrokerProcess({
        distDir: o.distDir,
        path: config.PATH,
        databaseUrl: db.appUrl,
        redisUrl: redis.url,
        cluster: o.brokers > 1,
        outDir: join(o.outDir, `broker-${b}`),
        env: { ...shared, BROKER_ID: `bench-${process.pid}-b${b}` },
      });
      brokers.push(broker);
      stops.push(() => broker.stop());
    }
    const orchestrators: OrchestratorProcess[] = [];
    for (let r = 0; r < o.orchestrators; r++) {
      const broker = brokers[r % brokers.length]!;
      const orchestrator = await startOrchestratorProcess({
        distDir: o.distDir,
        path: config.PATH,
        databaseUrl: db.appUrl,
        redisUrl: redis.url,
        mqttUrl: `mqtt://127.0.0.1:${broker.ports.mqtt}`,
        mqttPassword: serviceSecret,
        firmwareBaseUrl: broker.httpUrl,
        outDir: join(o.outDir, `orchestrator-${r}`),
        env: {
          REPLICA_ID: `bench-orchestrator-${process.pid}-${r}`,
          LEASE_TTL_MS: String(o.leaseTtlMs),
          LEASE_RENEW_MS: String(Math.max(100, Math.floor(o.leaseTtlMs / 5))),
        },
      });
      orchestrators.push(orchestrator);
      stops.push(() => orchestrator.stop());
    }
    const fleets: SimFleet[] = [];
    for (let b = 0; b < o.brokers; b++) {
      const share = Math.floor(o.devices / o.brokers) + (b < o.devices % o.brokers ? 1 : 0);
      const fleet = await forkSimFleet({
        count: share,
        otaUrl: `${brokers[b]!.httpUrl}/xiaozhi/ota/`,
        bootsPerSecond: o.bootsPerSecond / o.brokers,
        // One MAC range per broker's share: two shares must never be the same devices.
        macPrefix: `02:6${b}`,
      });
      fleets.push(fleet);
      stops.push(() => fleet.stop());
    }
    const pids: Pids = { redis: redis.pid };
    brokers.forEach((b, i) => (pids[`broker-${i}`] = b.pid));
    orchestrators.forEach((r, i) => (pids[`orchestrator-${i}`] = r.pid));
    fleets.forEach((f, i) => (pids[`sim-${i}`] = f.pid));
    return {
      layout: { brokers: o.brokers, orchestrators: o.orchestrators },
      db,
      redis,
      sql,
      postgres: new PostgresCpu(sql, db.name),
      brokers,
      orchestrators,
      fleets,
      pids,
      quiet: () => waitForQuietMachine(0.15, o.quietWaitMs),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
