import { z } from 'zod';
import { envUrl, findWorkspaceRoot, loadConfig } from '@fleet/config';

// The only place the benchmarks read process.env. Each scenario creates its own database, Redis and broker,
// so nothing here points at the development install.
const schema = z.object({
  /** An owner role on the Postgres the benchmark databases are created in (and dropped from afterwards). */
  BENCH_POSTGRES_URL: envUrl('postgresql://postgres@127.0.0.1:5432/postgres', ['postgresql:', 'postgres:']),
  /** The application role the broker connects as (created by the migrations). */
  BENCH_APP_ROLE: z.string().default('fleet_app'),
  /** The machine's Mosquitto, for the raw pub/sub comparison. */
  BENCH_MOSQUITTO: z.string().default('127.0.0.1:1883'),
  /** Passed on to the services the benchmarks start (redis-server, perf and node are found through it). */
  PATH: z.string().default('/usr/local/bin:/usr/bin:/bin'),
  /**
   * `1`: every statement on a run's database goes to the Postgres server's log, to count what a device or a
   * call costs (for a short run: the log grows by a line per statement).
   */
  BENCH_LOG_STATEMENTS: z.enum(['0', '1']).default('0'),
});

export function loadBenchConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(schema, env);
  const root = findWorkspaceRoot(__dirname);
  return { ...config, root };
}
export type BenchConfig = ReturnType<typeof loadBenchConfig>;
