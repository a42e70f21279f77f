import { z } from 'zod';

const value = z.union([z.boolean(), z.number(), z.string()]);
const kind = z.enum(['null', 'bool', 'number', 'string', 'array', 'object']);

/**
 * What the firmware did with the arguments it was sent beyond taking them at face value (xiaozhi §3.3), for the
 * parameters evidence row: "what the firmware would have done".
 */
export const argumentNoteSchema = z.discriminatedUnion('kind', [
  /** The value had the wrong JSON type, so the firmware treated the argument as absent. */
  z.object({
    kind: z.literal('wrong_type'),
    property: z.string(),
    key: z.string(),
    expected: z.enum(['boolean', 'integer', 'string']),
    sent: kind,
  }),
  /** The declared default was used silently. */
  z.object({
    kind: z.literal('default_used'),
    property: z.string(),
    value,
    because: z.enum(['absent', 'wrong_type']),
  }),
  /** cJSON's valueint differs from the number sent: a fraction truncated or a huge value saturated. */
  z.object({
    kind: z.literal('integer_truncated'),
    property: z.string(),
    key: z.string(),
    sent: z.number(),
    used: z.number(),
  }),
  /** The key that matched the property is spelled in another case. */
  z.object({ kind: z.literal('key_case_differs'), property: z.string(), key: z.string() }),
  /** A later key matching the same property (ignoring case) lost to the first one. */
  z.object({
    kind: z.literal('duplicate_ignored'),
    property: z.string(),
    key: z.string(),
    keptKey: z.string(),
  }),
  /** A key matching no declared property. */
  z.object({ kind: z.literal('undeclared_ignored'), key: z.string() }),
]);
export type ArgumentNote = z.infer<typeof argumentNoteSchema>;
