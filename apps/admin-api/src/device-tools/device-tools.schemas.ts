import { z } from 'zod';
import { macSchema } from '@fleet/protocol';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A marking is addressed by the name the catalog holds, whatever its characters (a `/`, any script, a bidi
 * control: a name the API could not address would be a tool nobody can gate). In the path it is one segment,
 * percent-encoded (`self.sec%2Freboot`); ordinary names need no encoding. Only what no catalog can hold is
 * refused: NUL (Postgres text) and lone surrogates (not Unicode).
 */
export const toolParams = z.strictObject({
  id: macSchema,
  name: z
    .string()
    .min(1)
    .max(200)
    .refine((n) => !n.includes('\u0000'), 'a tool name holds no NUL character')
    .refine((n) => !LONE_SURROGATE.test(n), 'a tool name is well-formed Unicode (no lone surrogate)'),
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
