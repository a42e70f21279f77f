import { join } from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '@fleet/db';
import type { BenchConfig } from '../config';

export interface BenchDatabase {
  name: string;
  /** The owner role, to look at rows. */
  ownerUrl: string;
  /** The application role, what the broker connects as. */
  appUrl: string;
  drop(): Promise<void>;
}

/** A database of the run's own, created by the migrations exactly as `npm start` creates `fleet`. */
export async function createBenchDatabase(config: BenchConfig, label: string): Promise<BenchDatabase> {
  const name = `fleet_bench_${label}_${process.pid}_${Date.now()}`;
  const url = (role?: string) => {
    const u = new URL(config.BENCH_POSTGRES_URL);
    u.pathname = `/${name}`;
    if (role) u.username = role;
    return u.toString();
  };
  await runMigrations(url(), join(config.root, 'prisma/migrations'));
  if (config.BENCH_LOG_STATEMENTS === '1') {
    const admin = new Client({ connectionString: config.BENCH_POSTGRES_URL });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${name}" SET log_statement = 'all'`);
    } finally {
      await admin.end();
    }
  }
  return {
    name,
    ownerUrl: url(),
    appUrl: url(config.BENCH_APP_ROLE),
    async drop() {
      const admin = new Client({ connectionString: config.BENCH_POSTGRES_URL });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** One number from a query on the bench database (counts of rows the broker wrote). */
export async function queryNumber(client: Client, sql: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(sql);
  return Number(rows[0]?.n ?? 0);
}
