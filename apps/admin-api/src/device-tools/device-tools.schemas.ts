import { z } from 'zod';
import { macSchema } from '@fleet/protocol';

export const toolParams = z.strictObject({
  id: macSchema,
  name: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\w.-]+$/, 'letters, digits, "_", "." and "-"'),
});

export const markingBody = z
  .strictObject({
    sensitive: z
      .boolean()
      .optional()
      .describe('true: user-only for the LLM and agents, and every call needs approval'),
    readOnly: z
      .boolean()
      .nullable()
      .optional()
      .describe(
        'true: a read (its answer is the verified value, DESIGN §1); false: not a read; null: unmark',
      ),
  })
  .refine((b) => b.sensitive !== undefined || b.readOnly !== undefined, {
    message: 'give sensitive, readOnly or both',
  });

export const catalogDiffQuery = z.strictObject({
  from: z.coerce.number().int().min(1).optional().describe('catalog version; default: the one before `to`'),
  to: z.coerce.number().int().min(1).optional().describe('catalog version; default: the current one'),
});

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export { toolSchema as toolView } from '@fleet/api-contract';
