import { get } from 'node:http';

/**
 * The broker's /metrics, read as numbers: `value(name, labels)` sums every sample whose labels include `labels`.
 * Read on a connection of its own that closes after the answer: an idle keep-alive connection would sit in the
 * device HTTP's connection budget like any other.
 */
export async function readMetrics(
  httpUrl: string,
): Promise<{ value(name: string, labels?: Record<string, string>): number }> {
  const text = await new Promise<string>((resolve, reject) => {
    get(`${httpUrl}/metrics`, { agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(body));
      response.on('error', reject);
    }).on('error', reject);
  });
  const samples = text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) return undefined;
      const labels = Object.fromEntries(
        [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]),
      );
      return { name: m[1]!, labels, value: Number(m[3]) };
    })
    .filter((s) => s !== undefined);
  return {
    value: (name, labels = {}) =>
      samples
        .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        .reduce((sum, s) => sum + s.value, 0),
  };
}
