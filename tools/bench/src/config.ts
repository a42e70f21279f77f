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
  /**
   * A diagnostic, never the product's setting: `off` lets the bench's database commit without waiting for its
   * WAL flush, so a run shows how much of a lone call's latency is the three commits it waits for (the call row,
   * the request's evidence, the seal: DESIGN §1 and §6 want each durable before the next step).
   */
  BENCH_SYNCHRONOUS_COMMIT: z.enum(['on', 'off']).default('on'),
  /**
   * A diagnostic: every statement on the bench's database slower than this many milliseconds is written to the
   * Postgres server's log with its plan, actual times and trigger times (auto_explain, loaded per session).
   */
  BENCH_EXPLAIN_SLOWER_THAN_MS: z.coerce.number().min(0).optional(),
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
