// DESIGN §6: the evidence chain hashes a row's content in a canonical form: JSON with object keys sorted at every
// level, the input first normalised as JSON would store it. The form is defined by what the first writer computed,
// `JSON.stringify(sortKeys(JSON.parse(JSON.stringify(value))))`, which every stored hash was made with, so this
// single-pass writer produces exactly those bytes (canonical-json.spec.ts holds it to that definition): the same
// values dropped (undefined, functions, symbols in objects; `null` for them in arrays), `toJSON` applied, and keys
// in the order a rebuilt object enumerates them (array-index keys ascending as numbers, then the rest sorted).
// It runs for every evidence row and approval hash; the three passes of the definition cost twice the time.

/** JSON with object keys sorted at every level; the input is first normalised as JSON would store it. */
export function canonicalJson(value: unknown): string {
  const text = write(value ?? null, '');
  // The definition parses what JSON.stringify left: nothing, for a lone function or symbol.
  if (text === undefined) throw new SyntaxError('a function or symbol alone is not JSON');
  return text;
}

/** The JSON text of a value, or undefined where JSON.stringify would leave it out. */
function write(value: unknown, key: string): string | undefined {
  if (value !== null && (typeof value === 'object' || typeof value === 'bigint')) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (k: string) => unknown).call(value, key);
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
  }
  if (value === null) return 'null';
  if (value instanceof Number || value instanceof String || value instanceof Boolean)
    return write(value.valueOf(), key);
  if (Array.isArray(value)) {
    const items = value.map((item: unknown, i) => write(item, String(i)) ?? 'null');
    return `[${items.join(',')}]`;
  }
  const object = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const k of orderedKeys(Object.keys(object))) {
    const text = write(object[k], k);
    if (text !== undefined) parts.push(`${JSON.stringify(k)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/** Array-index keys first, ascending as numbers (as every object enumerates them), then the others sorted. */
function orderedKeys(keys: string[]): string[] {
  const indices: string[] = [];
  const names: string[] = [];
  for (const k of keys) (isArrayIndex(k) ? indices : names).push(k);
  if (indices.length > 1) indices.sort((a, b) => Number(a) - Number(b));
  names.sort();
  return indices.length === 0 ? names : [...indices, ...names];
}

const MAX_ARRAY_INDEX = 2 ** 32 - 2;

function isArrayIndex(key: string): boolean {
  if (key.length === 0 || key.length > 10) return false;
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57 || (first === 48 && key.length > 1)) return false;
  for (let i = 1; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return Number(key) <= MAX_ARRAY_INDEX;
}
