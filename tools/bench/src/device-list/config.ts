import { z } from 'zod';
import { envInt, envUrl, findWorkspaceRoot, loadConfig } from '@fleet/config';

// The device-list benchmark's settings: the only place it reads process.env.
const schema = z.object({
  /** The Postgres owner role: the benchmark creates (and drops) a database of its own. */
  BENCH_POSTGRES_URL: envUrl('postgresql://postgres@127.0.0.1:5432/postgres', ['postgresql:', 'postgres:']),
  REDIS_URL: envUrl('redis://127.0.0.1:6379', ['redis:', 'rediss:']),
  BENCH_DEVICES: envInt(10_000, { min: 100 }),
  /** Full walks of the list per scenario, after one warm-up walk. */
  BENCH_WALKS: envInt(3, { min: 1 }),
  /** Passed on to the API process it starts. */
  PATH: z.string().default('/usr/local/bin:/usr/bin:/bin'),
});

export function loadDeviceListBenchConfig(env: NodeJS.ProcessEnv = process.env) {
  return { ...loadConfig(schema, env), root: findWorkspaceRoot(__dirname) };
}
