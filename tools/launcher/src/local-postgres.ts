import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createPgPool, postgresHealthCheck } from '@fleet/db';

/** Where Debian's and most distributions' Postgres put their socket, then the server's compiled-in default. */
export const SOCKET_DIRS = ['/var/run/postgresql', '/tmp'];

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The same database through the server's Unix socket, when `url` names a Postgres on this machine over loopback
 * TCP and a socket for its port is in `dirs`; otherwise undefined. On the 2-core machines of docs/BENCHMARKS.md
 * §12 a statement over loopback TCP cost each side a socket write through the TCP stack, and a lone call took
 * about twice the CPU and latency it takes over the socket.
 */
export function socketUrlFor(url: string, dirs: readonly string[] = SOCKET_DIRS): string | undefined {
  const parsed = new URL(url);
  if (!LOOPBACK_HOSTS.has(parsed.hostname) || parsed.searchParams.has('host')) return undefined;
  const port = parsed.port || '5432';
  const dir = dirs.find((d) => existsSync(join(d, `.s.PGSQL.${port}`)));
  if (!dir) return undefined;
  parsed.hostname = 'localhost';
  parsed.searchParams.set('host', dir);
  return parsed.toString();
}

/**
 * `url`, or the same database through its local socket when the server lets this role in there too (its
 * `pg_hba.conf` may treat local connections differently from TCP ones: then the TCP url stays).
 */
export async function preferLocalSocket(
  url: string,
  dirs: readonly string[] = SOCKET_DIRS,
): Promise<{ url: string; socket?: string }> {
  const socketUrl = socketUrlFor(url, dirs);
  if (!socketUrl) return { url };
  const pool = createPgPool(socketUrl, { max: 1, connectionTimeoutMs: 1_000 });
  try {
    await postgresHealthCheck(pool).check();
    return { url: socketUrl, socket: new URL(socketUrl).searchParams.get('host')! };
  } catch {
    return { url };
  } finally {
    await pool.end().catch(() => undefined);
  }
}
