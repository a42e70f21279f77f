// A tool's inputSchema (JSON Schema as the device declared it) as rows a person reads: name, type, what is
// allowed, default, required. Devices declare flat objects of integers, strings and booleans (xiaozhi §3).

export interface SchemaRow {
  name: string;
  type: string;
  required: boolean;
  /** "0 – 100", "one of: light, dark", "≤ 32 chars": already in words, language-neutral. */
  allowed: string[];
  defaultValue: string | undefined;
  description: string | undefined;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function schemaRows(schema: unknown): SchemaRow[] {
  if (!isObject(schema) || !isObject(schema['properties'])) return [];
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].map(String) : []);
  return Object.entries(schema['properties']).map(([name, raw]) => {
    const p = isObject(raw) ? raw : {};
    return {
      name,
      type: typeOf(p),
      required: required.has(name),
      allowed: allowedOf(p),
      defaultValue: p['default'] === undefined ? undefined : JSON.stringify(p['default']),
      description: typeof p['description'] === 'string' ? p['description'] : undefined,
    };
  });
}

function typeOf(p: Json): string {
  const type = p['type'];
  if (Array.isArray(type)) return type.map(String).join(' | ');
  return typeof type === 'string' ? type : 'any';
}

function allowedOf(p: Json): string[] {
  const out: string[] = [];
  const min = p['minimum'];
  const max = p['maximum'];
  if (typeof min === 'number' && typeof max === 'number') out.push(`${min} – ${max}`);
  else if (typeof min === 'number') out.push(`≥ ${min}`);
  else if (typeof max === 'number') out.push(`≤ ${max}`);
  if (Array.isArray(p['enum'])) out.push(`{ ${p['enum'].map((v) => JSON.stringify(v)).join(', ')} }`);
  if (typeof p['minLength'] === 'number') out.push(`len ≥ ${p['minLength']}`);
  if (typeof p['maxLength'] === 'number') out.push(`len ≤ ${p['maxLength']}`);
  if (typeof p['pattern'] === 'string') out.push(`/${p['pattern']}/`);
  if (typeof p['format'] === 'string') out.push(p['format']);
  return out;
}

/** Arguments typed from the form's text fields by each property's declared type (empty fields are left out). */
export function argumentsFromFields(
  schema: unknown,
  fields: Record<string, string>,
): Record<string, unknown> {
  const rows = new Map(schemaRows(schema).map((r) => [r.name, r]));
  const out: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(fields)) {
    if (text.trim() === '') continue;
    const type = rows.get(name)?.type;
    if (type === 'integer' || type === 'number') out[name] = Number(text);
    else if (type === 'boolean') out[name] = text === 'true';
    else out[name] = text;
  }
  return out;
}
