// Postgres stores neither U+0000 (text refuses the byte, jsonb the `\u0000` escape) nor a lone UTF-16 surrogate
// (jsonb refuses the escape JSON.stringify writes for one); a string holding either fails the whole statement.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what Postgres refuses
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

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

/**
 * The same value with every string (keys included) Postgres could store: U+0000 and each lone surrogate become
 * U+FFFD, as a UTF-8 decoder shows bytes it cannot read. For text the platform keeps alongside the exact bytes
 * (evidence keeps a reply raw, in base64): the words stay readable and the statement cannot fail on them. The value
 * itself comes back when nothing needs it (the common case costs one walk, no copy).
 */
export function withStorableText<T>(value: T): T {
  return hasUnstorableText(value) ? (clean(value) as T) : value;
}

function isPlainContainer(node: unknown): node is object {
  return node !== null && typeof node === 'object' && !(node instanceof Date) && !ArrayBuffer.isView(node);
}

/** True when some string in the value (a key included) holds U+0000 or a lone surrogate. */
export function hasUnstorableText(node: unknown): boolean {
  if (typeof node === 'string') return !isStorableText(node);
  if (Array.isArray(node)) return node.some(hasUnstorableText);
  if (!isPlainContainer(node)) return false;
  for (const key of Object.keys(node)) {
    if (!isStorableText(key) || hasUnstorableText((node as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function clean(node: unknown): unknown {
  if (typeof node === 'string') return node.replace(UNSTORABLE, '\uFFFD');
  if (Array.isArray(node)) return node.map(clean);
  if (!isPlainContainer(node)) return node;
  return Object.fromEntries(Object.entries(node).map(([key, item]) => [clean(key) as string, clean(item)]));
}
