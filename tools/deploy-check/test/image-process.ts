import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { PrunedInstall } from './pruned-install';

/** A container's process, as the image would run it: its argv, in WORKDIR, with ENV plus what the container adds. */
export interface ImageProcess {
  child: ChildProcess;
  logs: string[];
  /** Resolves with the ports of the service's "listening" line. */
  ports: Promise<Record<string, number>>;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function runImageCommand(
  install: PrunedInstall,
  argv: readonly string[],
  containerEnv: Record<string, string>,
): ImageProcess {
  const [command, ...args] = argv;
  const child = spawn(command!, args, {
    cwd: install.dir,
    // The image's PATH finds `node`; nothing else of this machine's environment reaches the process.
    env: { PATH: process.env['PATH'] ?? '', ...install.stage.env, ...containerEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(install.user ?? {}),
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ports = new Promise<Record<string, number>>((resolve, reject) => {
    const onLine = (line: string) => {
      logs.push(line);
      if (!line.includes('"ports"')) return;
      try {
        const found = (JSON.parse(line) as { ports?: Record<string, number> }).ports;
        if (found) resolve(found);
      } catch {
        // not a JSON line
      }
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    void exited.then((code) =>
      reject(new Error(`${argv.join(' ')} exited with ${code}:\n${logs.join('\n')}`)),
    );
  });
  ports.catch(() => undefined); // a one-shot has no ports; callers that wait for them see the rejection
  return {
    child,
    logs,
    ports,
    exited,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A one-shot (migrate, create-admin): its exit code and everything it printed. */
export async function runImageJob(
  install: PrunedInstall,
  argv: readonly string[],
  containerEnv: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const job = runImageCommand(install, argv, containerEnv);
  const timer = setTimeout(() => job.child.kill('SIGKILL'), 60_000);
  const code = await job.exited;
  clearTimeout(timer);
  // let readline deliver the last lines
  await new Promise((resolve) => setImmediate(resolve));
  return { code, output: job.logs.join('\n') };
}
