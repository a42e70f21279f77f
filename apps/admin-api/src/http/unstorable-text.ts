import type { FieldIssue } from './zod-issues';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`, 'g');

/**
 * Why Postgres cannot store a text as sent, or undefined. `text` and `jsonb` refuse U+0000 outright; a lone UTF-16
 * surrogate has no UTF-8 form (`jsonb` refuses its `\ud800` escape, a `text` parameter would silently become
 * U+FFFD, so what was stored would not be what was asked).
 */
export function unstorableReason(text: string): string | undefined {
  if (text.includes('\u0000')) return 'holds U+0000 (NUL), which cannot be stored';
  if (LONE_SURROGATE.test(text)) return 'holds a lone UTF-16 surrogate, which cannot be stored';
  return undefined;
}

/** The text with each NUL and lone surrogate written as its escape (`\u0000`): safe to show, log and store. */
export function visibleText(text: string): string {
  return text.replace(UNSTORABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`);
}

/**
 * Every key and string in a parsed request part (path parameters, query or JSON body) that Postgres could not
 * store, named as the client wrote it (`body.arguments.name`, `query.q`), at most `max`. Iterative, like the
 * depth check, so that what the walk costs never depends on how the body nests.
 */
export function unstorableTextIssues(value: unknown, location: string, max = 10): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const stack: { value: unknown; field: string }[] = [{ value, field: location }];
  while (stack.length > 0 && issues.length < max) {
    const { value: next, field } = stack.pop()!;
    if (typeof next === 'string') {
      const reason = unstorableReason(next);
      if (reason) issues.push({ field, message: reason });
      continue;
    }
    if (next === null || typeof next !== 'object' || Buffer.isBuffer(next)) continue;
    const entries = Array.isArray(next)
      ? next.map((v, i) => [String(i), v] as const)
      : Object.entries(next as Record<string, unknown>);
    // Reversed onto the stack, so issues come out in the order the client wrote the fields.
    for (const [key, child] of entries.reverse()) {
      const childField = `${field}.${visibleText(key)}`;
      // A key that cannot be stored is the issue itself, whatever it holds.
      stack.push({ value: unstorableReason(key) ? key : child, field: childField });
    }
  }
  return issues;
}

/**
 * A JSON value with every key and string of its plain objects and arrays made storable (visibleText): what the
 * API keeps of a refused request (its audit event) must not be refused in turn.
 */
export function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return visibleText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value === null || typeof value !== 'object') return value;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value; // a Date, a Buffer: serialised as they are
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [visibleText(k), storableJson(v)]),
  );
}
