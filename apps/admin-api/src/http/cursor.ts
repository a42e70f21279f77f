import { z } from 'zod';

// Keyset pagination: a cursor is the sort key of the last row a page returned, opaque to clients (base64url
// JSON), so the next page is `WHERE key > cursor ORDER BY key LIMIT n` whatever the table's size.

export function encodeCursor(key: unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** A query parameter holding a cursor; decodes to the key array, or fails naming the field. */
export const cursorParam = z
  .string()
  .max(512)
  .transform((text, ctx) => {
    try {
      const key = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
      if (Array.isArray(key) && key.every((k) => typeof k === 'string' || typeof k === 'number')) {
        return key;
      }
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'not a cursor this API returned' });
    return z.NEVER;
  });

export const limitParam = (fallback = 50, max = 500) =>
  z.coerce.number().int().min(1).max(max).default(fallback);

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Rows fetched with `limit + 1`: the extra row only says whether there is a next page. */
export function toPage<T>(rows: T[], limit: number, keyOf: (row: T) => unknown[]): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}
