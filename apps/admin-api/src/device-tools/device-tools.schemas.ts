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

export const markingBody = z.strictObject({
  sensitive: z.boolean().describe('true: user-only for the LLM and agents, and every call needs approval'),
});

export const catalogDiffQuery = z.strictObject({
  from: z.coerce.number().int().min(1).optional().describe('catalog version; default: the one before `to`'),
  to: z.coerce.number().int().min(1).optional().describe('catalog version; default: the current one'),
});

export const toolView = z.object({
  position: z.int(),
  name: z.string(),
  description: z.string(),
  inputSchema: z.unknown(),
  annotations: z.unknown().nullable(),
  userOnly: z.boolean().describe('declared user-only by the device (annotations.audience has "user")'),
  sensitive: z.boolean().describe('marked sensitive by an operator'),
  gated: z.boolean().describe('needs approval when an operator calls it; never offered to the LLM'),
  gatedBecause: z
    .string()
    .optional()
    .describe(
      'why it is gated: user-only, marked, or sensitive by default (a confirmation asked in its description)',
    ),
});
