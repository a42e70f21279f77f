import { z } from 'zod';

export const profileListQuery = z.strictObject({
  model: z.string().min(1).max(200).optional(),
  tool: z.string().min(1).max(200).optional(),
});

export const proposalListQuery = z.strictObject({
  state: z.enum(['pending', 'accepted', 'rejected']).default('pending'),
});

/** Accepting may correct where in the reader's answer the value sits (the platform only guessed it). */
export const acceptBody = z.strictObject({
  path: z
    .string()
    .max(200)
    .regex(/^([^.]+(\.[^.]+)*)?$/, 'dotted keys, or empty for the whole answer')
    .optional(),
  settleMs: z.int().min(0).max(10_000).optional(),
});
