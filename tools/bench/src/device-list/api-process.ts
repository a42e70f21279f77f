import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../harness/free-port';
import { BENCH_RATE_LIMITS } from '../platform/admin-api-process';

export interface ApiProcess {
  baseUrl: string;
  /** To read the process's CPU from /proc. */
  pid: number;
  stop(): Promise<void>;
}

/** The built admin API (`dist/`), started as production starts it, on a free loopback port. */
export async function startApiProcess(root: string, env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(root, 'dist/apps/admin-api/src/main.js')], {
    env: {
      ...BENCH_RATE_LIMITS,
      ...env,
      HTTP_PORT: String(port),
      BIND_HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEBHOOK_WORKER: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the admin API exited with ${child.exitCode}; was it built (npm run build)?`);
    const ok = await fetch(`${baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error('the admin API did not become healthy within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
