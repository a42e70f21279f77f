/** A status object flattened to `audio_speaker.volume → 40` pairs (text that is JSON is parsed first). */
export function flattenStatus(status: unknown): [string, string][] {
  let value = status;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return [['status', value as string]];
    }
  }
  const out: [string, string][] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
      for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k);
    } else if (path) {
      out.push([path, typeof node === 'string' ? node : JSON.stringify(node)]);
    }
  };
  walk(value, '');
  return out;
}
