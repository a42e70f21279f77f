import { assertNever } from '../result';
import { formatCJsonNumber } from './cjson-number';
import type { CJsonValue } from './cjson-value';

/** cJSON_PrintUnformatted: members in insertion order, no whitespace. */
export function printCJson(value: CJsonValue): string {
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return value.value ? 'true' : 'false';
    case 'number':
      return formatCJsonNumber(value.valuedouble, value.valueint);
    case 'string':
      return escapeCJsonString(value.value);
    case 'array':
      return `[${value.items.map(printCJson).join(',')}]`;
    case 'object':
      return `{${value.members.map((m) => `${escapeCJsonString(m.key)}:${printCJson(m.value)}`).join(',')}}`;
    default:
      return assertNever(value, 'cJSON value');
  }
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * cJSON print_string_ptr, quotes included: `"` and `\` and the five short control escapes; any other byte below
 * 0x20 as \u00xx in lower case; `/`, DEL and non-ASCII go out raw (as UTF-8 once encoded).
 */
export function escapeCJsonString(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this escapes
  return `"${text.replace(/["\\\u0000-\u001f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
