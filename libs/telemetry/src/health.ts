/** A dependency a service cannot work without; `check` rejects with the reason when it is unusable. */
export interface HealthCheck {
  name: string;
  check(): Promise<void>;
  /** Said in the report when the check fails: how to bring the dependency back. */
  hint?: string;
  /**
   * `degraded`: the service still does useful work without it (a missing speech engine: text turns are still
   * answered), so a failure makes the report `degraded`, not unhealthy. Default `critical`.
   */
  severity?: 'critical' | 'degraded';
}

export interface HealthReport {
  /** No critical check failed. */
  ok: boolean;
  /** `ok`, `degraded` (only degraded checks failed) or `unhealthy`. */
  status: 'ok' | 'degraded' | 'unhealthy';
  checks: Record<
    string,
    { ok: boolean; latencyMs: number; error?: string; hint?: string; severity?: 'degraded' }
  >;
}

/** Runs every check at once; a check slower than the timeout counts as failed. */
export async function runHealthChecks(checks: HealthCheck[], timeoutMs = 2_000): Promise<HealthReport> {
  const results = await Promise.all(
    checks.map(async (c): Promise<[string, HealthReport['checks'][string]]> => {
      const started = performance.now();
      try {
        await withTimeout(c.check(), timeoutMs, `${c.name} did not answer within ${timeoutMs} ms`);
        return [c.name, { ok: true, latencyMs: Math.round(performance.now() - started) }];
      } catch (err) {
        return [
          c.name,
          {
            ok: false,
            latencyMs: Math.round(performance.now() - started),
            error: (err as Error).message || String(err),
            ...(c.hint ? { hint: c.hint } : {}),
            ...(c.severity === 'degraded' ? { severity: 'degraded' as const } : {}),
          },
        ];
      }
    }),
  );
  const failed = results.filter(([, r]) => !r.ok);
  const ok = failed.every(([, r]) => r.severity === 'degraded');
  const status = failed.length === 0 ? 'ok' : ok ? 'degraded' : 'unhealthy';
  return { ok, status, checks: Object.fromEntries(results) };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `runHealthChecks` for a route many callers poll at once: a caller who arrives while a run is under way gets
 * that run's report instead of starting another, so 32 load balancers polling cost one round of checks, not 32.
 * No report is kept once its run has ended: every answer comes from checks that were still running when the
 * caller asked.
 */
export function sharedHealthChecks(checks: HealthCheck[], timeoutMs?: number): () => Promise<HealthReport> {
  let running: Promise<HealthReport> | undefined;
  return () => {
    running ??= runHealthChecks(checks, timeoutMs).finally(() => {
      running = undefined;
    });
    return running;
  };
}
