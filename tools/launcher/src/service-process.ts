import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { formatLogLine } from './log-format';

export interface ServiceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  /** Resolves with the ports the service reported in its "listening" log line. */
  ports: Promise<Record<string, number>>;
  exited: Promise<ServiceExit>;
}

export interface ServiceStart {
  distDir: string;
  pretty: boolean;
  env: NodeJS.ProcessEnv;
}

/** Starts one service from dist/, forwarding its logs and picking its ports out of them. */
export function startServiceProcess(
  name: string,
  entry: string,
  { distDir, pretty, env }: ServiceStart,
): ServiceProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', join(distDir, entry)], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let reportPorts!: (ports: Record<string, number>) => void;
  const ports = new Promise<Record<string, number>>((resolve) => (reportPorts = resolve));
  const onLine = (line: string) => {
    process.stdout.write((pretty ? formatLogLine(name, line) : line) + '\n');
    if (line.includes('"ports"')) {
      try {
        const event = JSON.parse(line) as { ports?: Record<string, number> };
        if (event.ports) reportPorts(event.ports);
      } catch {
        // not a JSON log line
      }
    }
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onLine);
  const exited = new Promise<ServiceExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // Could not be started at all (no shell, no node): as good as an exit, which the supervisor handles.
    child.once('error', () => resolve({ code: 127, signal: null }));
  });
  return { name, child, ports, exited };
}

/** "code 1", "signal SIGKILL". */
export function describeExit({ code, signal }: ServiceExit): string {
  return signal ? `signal ${signal}` : `code ${code}`;
}
