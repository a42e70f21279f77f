/** A dependency a service cannot work without; `check` rejects with the reason when it is unusable. */
export interface HealthCheck {
  name: string;
  check(): Promise<void>;
  /** Said in the report when the check fails: how to bring the dependency back. */
  hint?: string;
}

export interface HealthReport {
  ok: boolean;
  checks: Record<string, { ok: boolean; latencyMs: number; error?: string; hint?: string }>;
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
          },
        ];
      }
    }),
  );
  return { ok: results.every(([, r]) => r.ok), checks: Object.fromEntries(results) };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
