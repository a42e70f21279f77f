import { performance } from 'node:perf_hooks';

/** One request of a load; `k` numbers the requests of a phase (it picks the device, the path). */
export type Request = (k: number) => Promise<void>;

export interface LoadOutcome {
  /** Latency in ms of each request answered as asked (a refusal is not a latency). */
  latencies: number[];
  /** Requests refused or failed (a 503 while a dependency is slow to answer, say), and the first one's error. */
  failed: number;
  firstError?: string;
}

/**
 * A closed loop: `inFlight` requests outstanding at all times until `total` were asked for. A refused request is
 * counted, not retried: the phase reports it beside its rate, so that a rate of refusals cannot pass for speed.
 */
export async function closedLoop(inFlight: number, total: number, request: Request): Promise<LoadOutcome> {
  const out: LoadOutcome = { latencies: [], failed: 0 };
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < total; k = next++) {
      const started = performance.now();
      try {
        await request(k);
        out.latencies.push(performance.now() - started);
      } catch (err) {
        out.failed++;
        out.firstError ??= (err as Error).message.slice(0, 300);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, worker));
  return out;
}

/** A GET with a bearer key that must answer 200 (its body is read, as a client would). */
export async function getOk(url: string, key: string | undefined): Promise<void> {
  const response = await fetch(url, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 300)}`);
}
