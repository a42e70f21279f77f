import { metric, scrapeMetrics } from '../harness/proc-stats';

export interface HeapFigures {
  /** `nodejs_heap_size_used_bytes`: the live heap, just after a full GC. */
  used: number;
  /** `nodejs_heap_size_total_bytes`: the heap V8 keeps committed (RSS minus this is memory outside the heap). */
  committed: number;
}

/**
 * Each service's V8 heap, read from its own /metrics (prom-client's default figures, computed at scrape time):
 * taken just after a full GC (harness/gc-on-signal), `used` is the live heap, which a busy machine does not change.
 * A service whose /metrics does not answer reads 0, not a guess.
 */
export async function heapAfterGc(metricsUrls: Record<string, string>): Promise<Record<string, HeapFigures>> {
  const entries = await Promise.all(
    Object.entries(metricsUrls).map(async ([name, url]) => {
      try {
        const values = await scrapeMetrics(url);
        const figures: HeapFigures = {
          used: metric(values, 'nodejs_heap_size_used_bytes') ?? 0,
          committed: metric(values, 'nodejs_heap_size_total_bytes') ?? 0,
        };
        return [name, figures] as const;
      } catch {
        return [name, { used: 0, committed: 0 }] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}
