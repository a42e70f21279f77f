import { randomBytes } from 'node:crypto';
import { benchSealEnv } from './bench-seal-key';
import { startServiceProcess, type ServiceProcess } from './service-process';

/** Request rate limits no benchmark reaches: it measures the API's work, the limit's Redis command included. */
export const BENCH_RATE_LIMITS = { RATE_LIMIT_PER_KEY: '100000000', RATE_LIMIT_PER_ADDRESS: '100000000' };

export interface AdminApiProcessOptions {
  distDir: string;
  path: string;
  databaseUrl: string;
  redisUrl: string;
  /** The broker's device HTTP, the base of the firmware URLs the registry answers with. */
  publicHttpUrl: string;
  outDir: string;
  /** `--cpu-prof` into outDir (written on a clean exit), or `--perf-basic-prof` for `perf record`. */
  profile?: 'cpu' | 'perf';
  env?: Record<string, string>;
}

export interface AdminApiProcess extends ServiceProcess {
  baseUrl: string;
}

/** The admin API from dist/, as production runs it (no webhook worker: the benchmark registers no webhooks). */
export async function startAdminApiProcess(o: AdminApiProcessOptions): Promise<AdminApiProcess> {
  const service = await startServiceProcess({
    app: 'admin-api',
    distDir: o.distDir,
    outDir: o.outDir,
    ...(o.profile ? { profile: o.profile } : {}),
    env: {
      PATH: o.path,
      DATABASE_URL: o.databaseUrl,
      REDIS_URL: o.redisUrl,
      PUBLIC_HTTP_URL: o.publicHttpUrl,
      BIND_HOST: '127.0.0.1',
      HTTP_PORT: '0',
      WEBHOOK_WORKER: 'false',
      // Production refuses to start without them; the benchmark imports no eFuse keys and checks no audit seal.
      EFUSE_WRAPPING_KEYS: randomBytes(32).toString('hex'),
      AUDIT_SIGNING_KEY: randomBytes(32).toString('base64'),
      // Required in production since /mcp keeps request state; the benchmark's single replica needs no shared one.
      MCP_STATE_KEY: randomBytes(32).toString('hex'),
      ...benchSealEnv.adminApi,
      // The load comes from one address with a few keys, far past what one client may ask of a real API.
      ...BENCH_RATE_LIMITS,
      ...o.env,
    },
  });
  return { ...service, baseUrl: `http://127.0.0.1:${service.ports['http']}` };
}
