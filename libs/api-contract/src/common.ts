import { z } from 'zod';

// Pieces many answers share. Answers are strict objects: a field the API adds or drops without its schema
// changing fails the answer-validation tests of the admin API (apps/admin-api/src/http/answer-validation.ts).

/** An instant: `Date.toISOString()`, or Postgres's JSON form with an offset (json sub-selects). */
export const instant = z.iso.datetime({ offset: true });

/** Any JSON object the API passes through as stored (a device's status reply, a tool's schema). */
export const jsonObject = z.record(z.string(), z.unknown());

/** A paged list: `nextCursor` is null on the last page (DESIGN §3 REST). */
export const page = <T extends z.ZodType>(item: T) =>
  z.strictObject({ items: z.array(item), nextCursor: z.string().nullable() });
export type Page<T> = { items: T[]; nextCursor: string | null };

/** The refusal every 4xx and 5xx carries: `field` is `body.rollout.maxInFlight`, `query.limit`, ... */
export const apiErrorSchema = z.strictObject({
  statusCode: z.int(),
  code: z.string().describe('stable, for programs: validation_failed, not_found, four_eyes, ...'),
  message: z.string().describe('for people; names the field at fault'),
  issues: z.array(z.strictObject({ field: z.string(), message: z.string() })).optional(),
  dependency: z
    .enum(['postgres', 'redis', 'broker'])
    .optional()
    .describe('on a 503: what the API could not reach (Retry-After says when to try again)'),
  failed: z
    .strictObject({ check: z.string(), expected: z.string(), found: z.string() })
    .optional()
    .describe('on a 422 from a check with a measurable answer: which check, what it expected, what it found'),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** A person as answers name them (requester, approver). */
export const personSchema = z.strictObject({ id: z.uuid(), email: z.string(), name: z.string() });
export type Person = z.infer<typeof personSchema>;
