import { z } from 'zod';
import { instant } from './common';

/** How a setter's effect is read back (DESIGN §5): reader, where in its answer, the target. */
export const readbackSpecViewSchema = z.strictObject({
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  path: z.string(),
  argument: z.string().optional(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
  settleMs: z.int(),
});

/** GET /tool-profiles: what a tool is on every device of a model (and, when catalogHash is set, one catalog). */
export const toolProfileSchema = z.strictObject({
  id: z.uuid(),
  model: z.string(),
  catalogHash: z.string(),
  tool: z.string(),
  kind: z.enum(['read', 'action', 'sensitive', 'needs_confirmation']),
  readback: readbackSpecViewSchema.nullable(),
  capability: z.strictObject({ name: z.string(), argument: z.string() }).nullable(),
  doneWhen: z.enum(['verified', 'verified_or_acknowledged']),
  updatedBy: z.uuid(),
  updatedAt: instant,
});
export type ToolProfile = z.infer<typeof toolProfileSchema>;

/** A setter/reader pairing the platform saw in a catalog, for a person to decide. */
export const toolProfileProposalSchema = z.strictObject({
  id: z.uuid(),
  model: z.string(),
  catalogHash: z.string(),
  tool: z.string(),
  argument: z.string(),
  value: z.unknown(),
  readerTool: z.string(),
  path: z.string(),
  why: z.string(),
  state: z.enum(['pending', 'accepted', 'rejected']),
  decidedBy: z.uuid().nullable(),
  decidedAt: instant.nullable(),
  createdAt: instant,
});
export type ToolProfileProposal = z.infer<typeof toolProfileProposalSchema>;

export const proposalAcceptedSchema = z.strictObject({
  proposal: toolProfileProposalSchema,
  profiles: z.array(toolProfileSchema),
});
