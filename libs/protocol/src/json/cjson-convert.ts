import { assertNever } from '../result';
import { cjson, type CJsonValue } from './cjson-value';

/** A JSON-compatible JavaScript value as cJSON would hold it (object keys in insertion order; undefined skipped). */
export function toCJson(value: unknown): CJsonValue {
  if (value === null) return cjson.null();
  switch (typeof value) {
    case 'boolean':
      return cjson.bool(value);
    case 'number':
      return cjson.number(value);
    case 'string':
      return cjson.string(value);
    case 'object':
      if (Array.isArray(value)) return cjson.array(value.map((item) => toCJson(item ?? null)));
      return cjson.object(
        Object.entries(value as Record<string, unknown>)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, toCJson(v)] as const),
      );
    // Not JSON: written as null, as JSON.stringify does inside arrays.
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      return cjson.null();
  }
  return cjson.null();
}

/**
 * The plain JavaScript value of a cJSON document as the firmware would read it: the first of duplicate keys wins
 * (JSON.parse keeps the last). Numbers keep their double value.
 */
export function fromCJson(value: CJsonValue): unknown {
  switch (value.kind) {
    case 'null':
      return null;
    case 'bool':
    case 'string':
      return value.value;
    case 'number':
      return value.valuedouble;
    case 'array':
      return value.items.map(fromCJson);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const m of value.members) {
        // defineProperty, not assignment: a `__proto__` key is data here, not a prototype
        if (!Object.hasOwn(out, m.key)) Object.defineProperty(out, m.key, dataProperty(fromCJson(m.value)));
      }
      return out;
    }
    default:
      return assertNever(value, 'cJSON value');
  }
}

function dataProperty(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true };
}
