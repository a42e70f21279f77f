import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@fleet/testing';

/** Postgres as the suite reaches it: the shared server, or a cluster of its own that it may restart. */
export interface ChaosPostgres {
  host: string;
  port: number;
  /** The owner role's URL of a database. */
  url(database: string, role?: string): string;
  /** Restarts the server (fast shutdown: every connection is cut, as in a crash-restart). Private only. */
  restart?(): Promise<void>;
  stop(): Promise<void>;
}

const BIN_ROOT = '/usr/lib/postgresql';

function binDir(): string | undefined {
  if (!existsSync(BIN_ROOT)) return undefined;
  const version = readdirSync(BIN_ROOT).sort().at(-1);
  return version ? join(BIN_ROOT, version, 'bin') : undefined;
}

/** Whether a private cluster can be made here (Debian's server binaries; `runuser` when running as root). */
export function privatePostgresAvailable(): boolean {
  return binDir() !== undefined;
}

/**
 * A Postgres cluster of the suite's own in a temp dir on a free port (initdb, pg_ctl): restarting it breaks
 * nobody else's tests, unlike the machine's shared server. initdb refuses to run as root, so as root the
 * cluster runs as the `postgres` user. Trust auth on loopback, as the shared server has.
 */
export async function startPrivatePostgres(): Promise<ChaosPostgres> {
  const bin = binDir();
  if (!bin) throw new Error(`no Postgres server binaries under ${BIN_ROOT} (apt-get install postgresql)`);
  const dir = mkdtempSync(join(tmpdir(), 'chaos-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(ids.stdout.trim()), Number(gid.stdout.trim()));
  }
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    const result = spawnSync(command, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr || result.stdout}`);
  };
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-w', '-l', join(dir, 'log'), 'start']);
  start();
  return {
    host: '127.0.0.1',
    port,
    url: (database, role = 'postgres') => `postgresql://${role}@127.0.0.1:${port}/${database}`,
    restart: () => {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      start();
      return Promise.resolve();
    },
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      return Promise.resolve();
    },
  };
}
