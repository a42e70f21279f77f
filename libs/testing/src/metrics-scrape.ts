/** One sample of Prometheus text exposition: name, labels, value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = SAMPLE.exec(line);
    if (!m || line.startsWith('#')) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, '$1');
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** Every sample a service's /metrics shows now. */
export async function scrapeMetrics(url: string): Promise<Sample[]> {
  const response = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`${url}/metrics answered ${response.status}`);
  return parsePrometheusText(await response.text());
}

/** The sum of a metric's samples whose labels include `labels` (0 when none: a counter not yet touched). */
export async function scrape(
  url: string,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  return (await scrapeMetrics(url))
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
