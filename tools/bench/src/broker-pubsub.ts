// Scenario 6 (docs/BENCHMARKS.md §6): messages per second through the broker. P simulated devices publish a device reply,
// M service subscribers read the fan-in on fleet/devices/+/up/+ (on our broker: device-server, wrapped by
// sender identity; on the machine's Mosquitto: the same topics published directly). Reported as msgs/s and
// the ratio ours/Mosquitto.
//   npm run bench:broker-pubsub -- [--publishers 200] [--subscribers 2] [--window 2000] [--seconds 10]
//     [--cluster both|true|false] [--profile cpu|heap|perf] [--broker-dist <another build's dist/>]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadBenchConfig, type BenchConfig } from './config';
import { createBenchDatabase } from './harness/bench-database';
import { startBrokerProcess, type BrokerProcess, type BrokerProfile } from './harness/broker-process';
import { perfRecord } from './harness/perf-record';
import { openFilesLimit, pidsNamed } from './harness/proc-stats';
import { startRedisServer, type BenchRedis } from './harness/redis-server';
import { printResult, round, say, table } from './harness/report';
import { runPubSub, type LoadShape, type PubSubResult } from './pubsub/pubsub-run';

// A get_device_status reply as the firmware sends it (xiaozhi §3.4): what most uplink traffic looks like.
const DEVICE_REPLY =
  '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":' +
  '"{\\"audio_speaker\\":{\\"volume\\":70},\\"screen\\":{\\"brightness\\":75,\\"theme\\":\\"light\\"},' +
  '\\"network\\":{\\"type\\":\\"wifi\\",\\"ssid\\":\\"MyWiFi\\",\\"signal\\":\\"strong\\"}}"}],"isError":false}}}';

// A mistyped option fails here, with its name, rather than as NaN publishers half-way through a run.
const optionsSchema = z.object({
  publishers: z.coerce.number().int().positive(),
  subscribers: z.coerce.number().int().positive(),
  window: z.coerce.number().int().positive(),
  seconds: z.coerce.number().positive(),
  cluster: z.enum(['both', 'true', 'false']),
  profile: z.enum(['cpu', 'heap', 'perf']).optional(),
  'broker-dist': z.string().optional(),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      publishers: { type: 'string', default: '200' },
      subscribers: { type: 'string', default: '2' },
      window: { type: 'string', default: '2000' },
      seconds: { type: 'string', default: '10' },
      cluster: { type: 'string', default: 'both' },
      profile: { type: 'string' },
      /** Another build of the broker to measure (e.g. main's, to compare a change against it). */
      'broker-dist': { type: 'string' },
    },
  });
  const o = optionsSchema.parse(values);
  const config = loadBenchConfig();
  const shape: LoadShape = {
    publishers: o.publishers,
    subscribers: o.subscribers,
    window: o.window,
    warmupMs: 3_000,
    measureMs: o.seconds * 1000,
    payload: DEVICE_REPLY,
  };
  const profile = o.profile;
  const results: PubSubResult[] = [];

  const [mosquittoHost = '127.0.0.1', mosquittoPort = '1883'] = config.BENCH_MOSQUITTO.split(':');
  const mosquittoPid = pidsNamed('mosquitto')[0];
  if (mosquittoPid === undefined) throw new Error('no mosquitto process on this machine');
  const mosquittoOpenFiles = openFilesLimit(mosquittoPid);
  say(`mosquitto pid ${mosquittoPid}, open files limit ${mosquittoOpenFiles ?? 'unlimited'}`);
  results.push(
    await runPubSub(
      {
        name: 'mosquitto',
        pids: { broker: mosquittoPid },
        options: { mode: 'plain', mqtt: { host: mosquittoHost, port: Number(mosquittoPort) } },
      },
      shape,
    ),
  );

  for (const cluster of o.cluster === 'both' ? [true, false] : [o.cluster === 'true']) {
    results.push(await measureOurs(config, cluster, shape, o['broker-dist'], profile));
  }
  const mosquitto = results[0]!;
  const withRatio = results.map((r) => ({
    ...r,
    ratioToMosquitto: round(r.deliveredPerSecond / mosquitto.deliveredPerSecond, 3),
    // Throughput is capped by whichever process saturates first (on 2 cores, often the load itself); broker CPU
    // per delivery compares the brokers' own work whatever capped the rate.
    cpuPerDeliveryRatioToMosquitto:
      r.brokerCpuMicrosPerDelivery && mosquitto.brokerCpuMicrosPerDelivery
        ? round(r.brokerCpuMicrosPerDelivery / mosquitto.brokerCpuMicrosPerDelivery, 2)
        : null,
  }));
  printResult('broker-pubsub', { mosquittoOpenFilesLimit: mosquittoOpenFiles, runs: withRatio }, [
    `Pub/sub fan-in: ${shape.publishers} publishers → ${shape.subscribers} subscribers, ${Buffer.byteLength(shape.payload)}-byte device reply, window ${shape.window}, QoS 0`,
    `Mosquitto (pid ${mosquittoPid}) open files limit: ${mosquittoOpenFiles ?? 'unlimited'}`,
    ...table(
      [
        'broker',
        'published/s',
        'delivered/s',
        'ours/mosquitto',
        'broker CPU',
        'µs CPU/delivery',
        'CPU ×mosquitto',
        'load CPU',
        'redis CPU',
        'other CPU',
        'lost',
      ],
      withRatio.map((r) => [
        r.target,
        r.publishedPerSecond,
        r.deliveredPerSecond,
        r.ratioToMosquitto,
        `${r.cpuCores['broker']} cores`,
        r.brokerCpuMicrosPerDelivery ?? '-',
        r.cpuPerDeliveryRatioToMosquitto ?? '-',
        `${r.cpuCores['load']} cores`,
        r.cpuCores['redis'] === undefined ? '-' : `${r.cpuCores['redis']} cores`,
        `${r.cpuCores['other']} cores`,
        r.lost,
      ]),
    ),
    withRatio.every((r) => r.verified)
      ? 'first delivery verified byte for byte on every broker'
      : 'VERIFICATION FAILED',
  ]);
}

/**
 * One run against our broker, with a database and a redis-server of its own; all three are stopped (and the
 * database dropped) however the run ends, a broker that never started listening included.
 */
async function measureOurs(
  config: BenchConfig,
  cluster: boolean,
  shape: LoadShape,
  brokerDist: string | undefined,
  profile: BrokerProfile | undefined,
): Promise<PubSubResult> {
  const db = await createBenchDatabase(config, 'pubsub');
  let redis: BenchRedis | undefined;
  let broker: BrokerProcess | undefined;
  let perf: ReturnType<typeof perfRecord> | undefined;
  try {
    redis = await startRedisServer();
    const outDir = join(config.root, 'dist/bench/broker-pubsub', `cluster-${cluster}`);
    broker = await startBrokerProcess({
      distDir: brokerDist ?? join(config.root, 'dist'),
      path: config.PATH,
      databaseUrl: db.appUrl,
      redisUrl: redis.url,
      cluster,
      outDir,
      ...(profile ? { profile } : {}),
      // The default 20/s per device (bursts of 40) would disconnect a publisher within the first second.
      env: { DEVICE_MESSAGE_RATE: '10000' },
    });
    perf = profile === 'perf' ? perfRecord(broker.pid, outDir) : undefined;
    return await runPubSub(
      {
        name: `ours (cluster ${cluster})`,
        pids: { broker: broker.pid, redis: redis.pid },
        options: {
          mode: 'ours',
          mqtt: { host: '127.0.0.1', port: broker.ports.mqtt },
          otaUrl: `${broker.httpUrl}/xiaozhi/ota/`,
          subscriberAuth: { username: 'orchestrator', password: broker.serviceSecret },
        },
      },
      shape,
    );
  } finally {
    await perf?.stop();
    await broker?.stop();
    await redis?.stop();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
