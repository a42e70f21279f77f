import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface ServiceProcess {
  child: ChildProcess;
  ports: Record<string, number>;
  /** Every log line so far (JSON as the service wrote it). */
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const root = join(__dirname, '../../..');

/**
 * One of the platform's services as its own process, started from dist/ exactly as `npm start` does (global test
 * setup builds dist/ first). Resolves once the service logged the ports it listens on.
 */
export function startServiceProcess(
  app: string,
  env: Record<string, string>,
  timeoutMs = 20_000,
  { openFiles }: { openFiles?: number } = {},
): Promise<ServiceProcess> {
  const node = [process.execPath, '--enable-source-maps', join(root, 'dist/apps', app, 'src/main.js')];
  // `openFiles`: the process's RLIMIT_NOFILE, soft and hard (util-linux prlimit, which execs the service).
  const [command, ...args] =
    openFiles === undefined ? node : ['prlimit', `--nofile=${openFiles}:${openFiles}`, '--', ...node];
  const child = spawn(command!, args, {
    // The "listening" line that carries the ports is logged at info level, so the level cannot be higher.
    env: { PATH: process.env['PATH'] ?? '', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${app} did not start within ${timeoutMs} ms:\n${logs.join('\n')}`));
    }, timeoutMs);
    const onLine = (line: string) => {
      logs.push(line);
      if (!line.includes('"ports"')) return;
      try {
        const ports = (JSON.parse(line) as { ports?: Record<string, number> }).ports;
        if (!ports) return;
        clearTimeout(timer);
        resolve({
          child,
          ports,
          logs,
          stop: (signal = 'SIGTERM') => {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        });
      } catch {
        // not a JSON line
      }
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${app} exited with ${code} before listening:\n${logs.join('\n')}`));
    });
  });
}
