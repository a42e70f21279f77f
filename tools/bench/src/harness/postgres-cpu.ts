import type { Client } from 'pg';
import { cpuSeconds } from './proc-stats';

/**
 * CPU of the Postgres work a run causes: the backends connected to its own database, and the server's shared
 * writers (WAL writer, checkpointer, background writer), leaving out backends of other databases (another
 * session's tests on the same server). Backends come and go, so CPU is summed per pid between two samples.
 */
export class PostgresCpu {
  constructor(
    private readonly sql: Client,
    private readonly database: string,
  ) {}

  /** CPU seconds so far, by pid. */
  async sample(): Promise<Map<number, number>> {
    const { rows } = await this.sql.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = $1 OR backend_type IN ('walwriter', 'checkpointer', 'background writer')`,
      [this.database],
    );
    return new Map(rows.map(({ pid }) => [pid, cpuSeconds(pid)]));
  }

  /** Transactions committed in the run's database so far (each single statement outside BEGIN is one). */
  async commits(): Promise<number> {
    const { rows } = await this.sql.query<{ n: string }>(
      'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = $1',
      [this.database],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** CPU seconds between two samples: a pid new in `to` counts whole, one gone from `to` is lost (rare). */
  static between(from: Map<number, number>, to: Map<number, number>): number {
    let total = 0;
    for (const [pid, seconds] of to) total += Math.max(0, seconds - (from.get(pid) ?? 0));
    return total;
  }
}
