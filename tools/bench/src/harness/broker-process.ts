import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { exited, stopChild } from './child-process';

export type BrokerProfile = 'cpu' | 'heap' | 'perf';

export interface BrokerProcessOptions {
  distDir: string;
  /** The PATH the broker runs with. */
  path: string;
  databaseUrl: string;
  redisUrl: string;
  cluster: boolean;
  /** Where the broker's log (and profiles) go. */
  outDir: string;
  /**
   * `cpu` or `heap`: run the broker under `--cpu-prof` / `--heap-prof`, written to outDir on exit; `perf`: with
   * `--perf-basic-prof`, for `perf record` (see perf-record.ts).
   */
  profile?: BrokerProfile;
  /** More Node options for the broker (e.g. `--perf-basic-prof` for `perf record`). */
  nodeOptions?: string[];
  env?: Record<string, string>;
  /** The broker's RLIMIT_NOFILE, soft and hard (through util-linux prlimit, which execs node: same pid). */
  openFiles?: number;
}

export interface BrokerProcess {
  pid: number;
  ports: { mqtt: number; http: number; udp: number; ws: number; link: number };
  httpUrl: string;
  metricsUrl: string;
  serviceSecret: string;
  /** Log lines by pino level name, and the first warnings and errors. */
  logs: { counts: Record<string, number>; samples: string[] };
  /** A full GC in the broker (SIGUSR2, through the preloaded gc-on-signal). */
  collectGarbage(): Promise<void>;
  stop(): Promise<number | string>;
}

const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const LOUD = new Set(['warn', 'error', 'fatal']);

/**
 * The broker as production runs it (`node dist/apps/broker/src/main.js`, NODE_ENV=production, JSON logs), on
 * ports the OS picks, with its own database and Redis. The benchmark reads its ports from the "listening" line.
 */
export async function startBrokerProcess(o: BrokerProcessOptions): Promise<BrokerProcess> {
  mkdirSync(o.outDir, { recursive: true });
  const serviceSecret = randomBytes(16).toString('hex');
  const execArgv = ['--expose-gc', '-r', join(__dirname, 'gc-on-signal.js')];
  if (o.profile === 'cpu') execArgv.push('--cpu-prof', `--cpu-prof-dir=${o.outDir}`);
  if (o.profile === 'heap') execArgv.push('--heap-prof', `--heap-prof-dir=${o.outDir}`);
  if (o.profile === 'perf') execArgv.push('--perf-basic-prof');
  execArgv.push(...(o.nodeOptions ?? []));
  const node = [process.execPath, ...execArgv, join(o.distDir, 'apps/broker/src/main.js')];
  const [command, ...args] =
    o.openFiles === undefined ? node : ['prlimit', `--nofile=${o.openFiles}:${o.openFiles}`, '--', ...node];
  const child = spawn(command!, args, {
    env: {
      PATH: o.path,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: o.databaseUrl,
      REDIS_URL: o.redisUrl,
      BROKER_ID: `bench-${process.pid}`,
      BIND_HOST: '127.0.0.1',
      MQTT_PORT: '0',
      MQTT_WS_PORT: '0',
      HTTP_PORT: '0',
      UDP_PORT: '0',
      LINK_PORT: '0',
      BROKER_CLUSTER: String(o.cluster),
      DEVICE_SIGNING_KEYS: randomBytes(24).toString('hex'),
      EFUSE_WRAPPING_KEYS: randomBytes(32).toString('hex'),
      SERVICE_CREDENTIALS: `orchestrator:${serviceSecret}`,
      // A simulated fleet is thousands of devices on one address: the edge budget's share per address (and
      // its total, in a reconnect storm) would turn most of them away.
      EDGE_PENDING_MAX: '1000000',
      EDGE_PENDING_PER_ADDRESS: '1000000',
      ...o.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(o.outDir, 'broker.log'));
  const logs = { counts: {} as Record<string, number>, samples: [] as string[] };
  let reportPorts!: (ports: BrokerProcess['ports']) => void;
  const ports = new Promise<BrokerProcess['ports']>((resolve) => (reportPorts = resolve));
  const onLine = (line: string) => {
    log.write(`${line}\n`);
    // The broker's pino writes the level's name ("warn", libs/telemetry's logger); a plain pino its number (40).
    let event: { level?: number | string; msg?: string; ports?: BrokerProcess['ports'] };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      logs.counts['text'] = (logs.counts['text'] ?? 0) + 1;
      return;
    }
    const level = typeof event.level === 'number' ? (LEVELS[event.level] ?? 'info') : (event.level ?? 'info');
    logs.counts[level] = (logs.counts[level] ?? 0) + 1;
    if (LOUD.has(level) && logs.samples.length < 5) logs.samples.push(line.slice(0, 400));
    if (event.ports) reportPorts(event.ports);
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onLine);
  const started = await Promise.race([
    ports,
    exited(child).then((code) => {
      throw new Error(`the broker exited (${code}) before listening; see ${join(o.outDir, 'broker.log')}`);
    }),
  ]);
  const httpUrl = `http://127.0.0.1:${started.http}`;
  return {
    pid: child.pid!,
    ports: started,
    httpUrl,
    metricsUrl: `${httpUrl}/metrics`,
    serviceSecret,
    logs,
    async collectGarbage() {
      child.kill('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 500));
    },
    async stop() {
      // Closing thousands of connections takes a while; a profile is written only on a clean exit.
      const code = await stopChild(child, 60_000);
      log.end();
      return code;
    },
  };
}
