import { metric, scrapeMetrics } from '../harness/proc-stats';

/**
 * The V8 heap in use of each service (or another of prom-client's process figures, such as the heap V8 has
 * committed, `nodejs_heap_size_total_bytes`), read from its own /metrics (prom-client's `nodejs_heap_size_used_bytes`):
 * taken just after a full GC (harness/gc-on-signal), it is the live heap, which a busy machine does not change.
 * prom-client computes the figure at scrape time, so the scrape itself adds a few KB at most.
 */
export async function heapUsed(
  metricsUrls: Record<string, string>,
  name = 'nodejs_heap_size_used_bytes',
): Promise<Record<string, number>> {
  const entries = await Promise.all(
    Object.entries(metricsUrls).map(async ([name, url]) => {
      try {
        return [name, metric(await scrapeMetrics(url), name) ?? 0] as const;
      } catch {
        return [name, 0] as const; // no /metrics answered: reported as 0, not guessed
      }
    }),
  );
  return Object.fromEntries(entries);
}
