// Postgres stores neither U+0000 (text refuses the byte, jsonb the `\u0000` escape) nor a lone UTF-16 surrogate
// (jsonb refuses the escape JSON.stringify writes for one); a string holding either fails the whole statement.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when Postgres can store the string as text or inside jsonb. */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/**
 * A JSON object or array without the entries Postgres could not store: every string holding U+0000 or a lone surrogate is
 * dropped with its key (or its array element), and so is a key holding one. `dropped` names each by its dotted
 * path (`board.type`, `partition_table.0.label`), never by its content.
 */
export function withoutUnstorableText<T extends object | undefined>(
  value: T,
): { value: T; dropped: string[] } {
  const dropped: string[] = [];
  const clean = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) {
      const kept: unknown[] = [];
      node.forEach((item, index) => {
        if (typeof item === 'string' && !isStorableText(item)) dropped.push(join(path, String(index)));
        else kept.push(clean(item, join(path, String(index))));
      });
      return kept;
    }
    if (node === null || typeof node !== 'object') return node;
    const kept: [string, unknown][] = [];
    for (const [key, item] of Object.entries(node)) {
      const at = join(path, isStorableText(key) ? key : '?');
      if (!isStorableText(key) || (typeof item === 'string' && !isStorableText(item))) dropped.push(at);
      else kept.push([key, clean(item, at)]);
    }
    return Object.fromEntries(kept); // defines own keys: a `__proto__` key from JSON stays a plain key
  };
  const cleaned = clean(value, '');
  return { value: (dropped.length === 0 ? value : cleaned) as T, dropped };
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
