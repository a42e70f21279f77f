import { z } from 'zod';
import { macSchema, serialNumberSchema } from '@fleet/protocol';
import { unstorableReason } from './unstorable-text';

// Keyset pagination: a cursor is the sort key of the last row a page returned, opaque to clients (base64url
// JSON), so the next page is `WHERE key > cursor ORDER BY key LIMIT n` whatever the table's size. Each list
// declares its key's shape, position by position, and a cursor that does not fit it is refused as the client's
// error: its values go into SQL casts (`::timestamptz`, `::uuid`) that would otherwise fail as the server's.

/** An instant exactly as a page wrote it (`Date.toISOString()`), and one Postgres can hold (year 1 and later). */
const instant = z
  .string()
  .regex(/^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  .refine((text) => {
    const at = new Date(text);
    return !Number.isNaN(at.getTime()) && at.toISOString() === text;
  });

/** What a position of a cursor's key may hold. */
export const cursorKey = {
  instant,
  uuid: z.uuid(),
  mac: macSchema,
  serialNumber: serialNumberSchema,
  /** An identifier another service minted (a connection id): text Postgres can store. */
  id: z
    .string()
    .min(1)
    .max(200)
    .refine((text) => unstorableReason(text) === undefined),
} as const;

type Positions = [z.ZodType, ...z.ZodType[]];

/** One list's cursor: the query parameter that reads it and the encoder its pages write it with. */
export interface Cursor<K extends unknown[]> {
  /** The `cursor` query parameter: decodes to the key, or fails as a 400 naming `query.cursor`. */
  param: z.ZodType<K, string>;
  encode(key: K): string;
}

export function cursorOf<const P extends Positions>(...positions: P): Cursor<z.output<z.ZodTuple<P, null>>> {
  type Key = z.output<z.ZodTuple<P, null>>;
  const key = z.tuple(positions);
  const param = z
    .string()
    .max(512)
    .transform((text, ctx): Key => {
      const parsed = key.safeParse(decoded(text));
      if (parsed.success) return parsed.data;
      // One issue on the parameter itself: which position failed says nothing a client can act on.
      ctx.addIssue({ code: 'custom', message: 'not a cursor this API returned' });
      return z.NEVER;
    });
  return {
    param,
    encode: (k) => Buffer.from(JSON.stringify(k)).toString('base64url'),
  };
}

function decoded(text: string): unknown {
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

export const limitParam = (fallback = 50, max = 500) =>
  z.coerce.number().int().min(1).max(max).default(fallback);

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Rows fetched with `limit + 1`: the extra row only says whether there is a next page. */
export function toPage<T, K extends unknown[]>(
  rows: T[],
  limit: number,
  cursor: Cursor<K>,
  keyOf: (row: T) => K,
): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? cursor.encode(keyOf(last)) : null };
}
