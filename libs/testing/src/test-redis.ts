import { spawn, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import { freePort } from './free-port';

export interface TestRedis {
  port: number;
  url: string;
  /** Stops the server and starts a new one on the same port, empty (it keeps nothing on disk): a Redis restart. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A redis-server of the test file's own. Pub/sub ignores database numbers and mqemitter-redis names its
 * channels after MQTT topics, so sharing one server between parallel tests would cross their messages.
 */
export async function startTestRedis(): Promise<TestRedis> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    let child = spawnRedis(port);
    try {
      await waitForPort(port, child);
    } catch (err) {
      child.kill('SIGKILL');
      if (attempt < 3) continue; // the port was taken between freePort() and the spawn
      throw err;
    }
    return {
      port,
      url: `redis://127.0.0.1:${port}`,
      async restart() {
        await stopChild(child);
        child = spawnRedis(port);
        await waitForPort(port, child);
      },
      stop: () => stopChild(child),
    };
  }
}

function spawnRedis(port: number): ChildProcess {
  return spawn(
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
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 5_000;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`redis-server exited before listening on ${port}`);
    if (await canConnect(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`redis-server did not listen on ${port} within 5 s`);
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

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
