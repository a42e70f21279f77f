import type { HealthCheck } from '@fleet/telemetry';

/**
 * Whether the loops that read Redis streams keep failing. A loop that retries forever hides its outage from
 * `/healthz` (Redis answers PING while every XREADGROUP fails with NOGROUP); a loop that reports here makes the
 * check fail once one of them has failed without a success for `failingForMs`.
 */
export class ReaderHealth {
  private readonly failing = new Map<string, { since: number; error: string }>();

  constructor(private readonly failingForMs = 5_000) {}

  succeeded(reader: string): void {
    this.failing.delete(reader);
  }

  failed(reader: string, err: unknown): void {
    const error = (err as Error)?.message ?? String(err);
    const seen = this.failing.get(reader);
    this.failing.set(reader, { since: seen?.since ?? Date.now(), error });
  }

  /** Readers failing for longer than the threshold, with their last error. */
  stuck(now = Date.now()): { reader: string; forMs: number; error: string }[] {
    return [...this.failing]
      .filter(([, f]) => now - f.since >= this.failingForMs)
      .map(([reader, f]) => ({ reader, forMs: now - f.since, error: f.error }));
  }

  healthCheck(name = 'stream-readers'): HealthCheck {
    return {
      name,
      check: () => {
        const stuck = this.stuck();
        if (stuck.length === 0) return Promise.resolve();
        const what = stuck.map((s) => `${s.reader} failing for ${Math.round(s.forMs / 1000)} s: ${s.error}`);
        return Promise.reject(new Error(what.join('; ')));
      },
    };
  }
}
