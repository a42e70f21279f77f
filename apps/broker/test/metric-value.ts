/** The broker's /metrics, read as numbers: `value(name, labels)` sums every sample whose labels include `labels`. */
export async function readMetrics(
  httpUrl: string,
): Promise<{ value(name: string, labels?: Record<string, string>): number }> {
  const text = await (await fetch(`${httpUrl}/metrics`)).text();
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
