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
  const settings = diagnosticSettings(config);
  if (settings.length > 0) {
    const owner = new Client({ connectionString: url() });
    await owner.connect();
    try {
      for (const [key, value] of settings)
        await owner.query(`ALTER DATABASE "${name}" SET ${key} = '${value}'`);
    } finally {
      await owner.end();
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

/** The database settings a diagnostic run asks for (none in a normal run). */
function diagnosticSettings(config: BenchConfig): [string, string][] {
  const settings: [string, string][] = [];
  if (config.BENCH_SYNCHRONOUS_COMMIT === 'off') settings.push(['synchronous_commit', 'off']);
  if (config.BENCH_LOG_STATEMENTS === '1') settings.push(['log_statement', 'all']);
  const explainMs = config.BENCH_EXPLAIN_SLOWER_THAN_MS;
  if (explainMs !== undefined) {
    settings.push(
      ['session_preload_libraries', 'auto_explain'],
      ['auto_explain.log_min_duration', `${explainMs}ms`],
      ['auto_explain.log_analyze', 'on'],
      ['auto_explain.log_triggers', 'on'],
      ['auto_explain.log_nested_statements', 'on'],
    );
  }
  return settings;
}

/** One number from a query on the bench database (counts of rows the broker wrote). */
export async function queryNumber(client: Client, sql: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(sql);
  return Number(rows[0]?.n ?? 0);
}
