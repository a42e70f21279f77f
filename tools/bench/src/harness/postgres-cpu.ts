import type { Client } from 'pg';
import { cpuSeconds } from './proc-stats';

/**
 * CPU of the Postgres work a run causes: the backends connected to its own database, and the server's shared
 * writers (WAL writer, checkpointer, background writer), leaving out backends of other databases (another
 * session's tests on the same server). Backends come and go, so CPU is summed per pid between two samples, and
 * every pid keeps the CPU it was last seen with: a backend that closed (a pool's idle connection) counts up to
 * the last sample it was alive for, so a long phase should be sampled every second or so.
 */
export class PostgresCpu {
  private readonly lastSeen = new Map<number, number>();

  constructor(
    private readonly sql: Client,
    private readonly database: string,
  ) {}

  /** CPU seconds so far, by pid: the live backends' now, those gone since an earlier sample's then. */
  async sample(): Promise<Map<number, number>> {
    const { rows } = await this.sql.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = $1 OR backend_type IN ('walwriter', 'checkpointer', 'background writer')`,
      [this.database],
    );
    for (const { pid } of rows) {
      const seconds = cpuSeconds(pid);
      // A pid whose /proc entry is already gone reads as 0: it keeps what it was last seen with.
      if (seconds > 0 || !this.lastSeen.has(pid)) this.lastSeen.set(pid, seconds);
    }
    return new Map(this.lastSeen);
  }

  /** Transactions committed in the run's database so far (each single statement outside BEGIN is one). */
  async commits(): Promise<number> {
    const { rows } = await this.sql.query<{ n: string }>(
      'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = $1',
      [this.database],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** CPU seconds between two samples: a pid new in `to` counts whole. */
  static between(from: Map<number, number>, to: Map<number, number>): number {
    let total = 0;
    for (const [pid, seconds] of to) total += Math.max(0, seconds - (from.get(pid) ?? 0));
    return total;
  }
}
