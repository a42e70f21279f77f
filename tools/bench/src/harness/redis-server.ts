import { spawn } from 'node:child_process';
import { Socket } from 'node:net';
import { freePort } from './free-port';
import { exited, stopChild } from './child-process';

export interface BenchRedis {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A redis-server of the benchmark's own on a free port, without persistence. */
export async function startRedisServer(): Promise<BenchRedis> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const gone = exited(child);
  const deadline = Date.now() + 5_000;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${await gone}) before listening`);
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port} within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => void (await stopChild(child, 5_000)),
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}
