import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { exited, stopChild } from '../harness/child-process';

export interface ServiceProcessOptions {
  /** The app folder under dist/apps (`orchestrator`, `admin-api`). */
  app: string;
  distDir: string;
  env: Record<string, string>;
  /** Where the service's log (and a CPU profile) go. */
  outDir: string;
  /** `--cpu-prof` into outDir (written on a clean exit), or `--perf-basic-prof` for `perf record`. */
  profile?: 'cpu' | 'perf';
  /** More Node options (e.g. harness/heap-snapshot's). */
  nodeOptions?: string[];
}

export interface ServiceProcess {
  pid: number;
  ports: Record<string, number>;
  /** Log lines by pino level name, and the first warnings and errors. */
  logs: { counts: Record<string, number>; samples: string[] };
  /** A full GC in the service (SIGUSR2, through the preloaded harness/gc-on-signal). */
  collectGarbage(): Promise<void>;
  stop(): Promise<number | string>;
}

const LEVELS: Record<number, string> = { 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const LOUD = new Set(['warn', 'error', 'fatal']);

/**
 * One of the platform's services as production runs it (`node dist/apps/<app>/src/main.js`, NODE_ENV=production,
 * JSON logs) with GC on demand; resolves with the ports from its "listening" line. The broker has its own starter
 * (harness/broker-process.ts); this one serves the orchestrator and the admin API the same way.
 */
export async function startServiceProcess(o: ServiceProcessOptions): Promise<ServiceProcess> {
  mkdirSync(o.outDir, { recursive: true });
  const execArgv = ['--expose-gc', '-r', join(__dirname, '../harness/gc-on-signal.js')];
  if (o.profile === 'cpu') execArgv.push('--cpu-prof', `--cpu-prof-dir=${o.outDir}`);
  if (o.profile === 'perf') execArgv.push('--perf-basic-prof');
  execArgv.push(...(o.nodeOptions ?? []));
  const child = spawn(process.execPath, [...execArgv, join(o.distDir, 'apps', o.app, 'src/main.js')], {
    // The "listening" line that carries the ports is logged at info, so the level is info at most.
    env: { NODE_ENV: 'production', LOG_LEVEL: 'info', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(o.outDir, `${o.app}.log`));
  const logs = { counts: {} as Record<string, number>, samples: [] as string[] };
  let reportPorts!: (ports: Record<string, number>) => void;
  const ports = new Promise<Record<string, number>>((resolve) => (reportPorts = resolve));
  const onLine = (line: string) => {
    log.write(`${line}\n`);
    // The services' pino writes the level's name ("warn"); a plain pino would write its number (40).
    let event: { level?: number | string; ports?: Record<string, number> };
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
      throw new Error(`${o.app} exited (${code}) before listening; see ${join(o.outDir, `${o.app}.log`)}`);
    }),
  ]);
  return {
    pid: child.pid!,
    ports: started,
    logs,
    async collectGarbage() {
      child.kill('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 500));
    },
    async stop() {
      const code = await stopChild(child, 60_000);
      log.end();
      return code;
    },
  };
}
