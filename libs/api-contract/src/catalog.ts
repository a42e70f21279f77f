import { z } from 'zod';
import { instant } from './common';
import { TOOL_NAME_FLAGS } from './vocabulary';

/** One tool of a device's catalog (or a platform tool, position < 0), with the gate's view of it. */
export const toolSchema = z.strictObject({
  position: z.int(),
  name: z.string(),
  description: z.string(),
  inputSchema: z.unknown(),
  outputSchema: z
    .unknown()
    .nullable()
    .describe(
      "the shape of the tool's structured result as the device declared it (MCP 2025-06-18); null: none",
    ),
  annotations: z.unknown().nullable(),
  userOnly: z.boolean().describe('declared user-only by the device (annotations.audience has "user")'),
  sensitive: z.boolean().describe('marked sensitive by an operator'),
  readOnly: z
    .boolean()
    .nullable()
    .describe(
      "an operator's read-only marking (DESIGN §1: its answer verifies a call); null when not marked",
    ),
  profileKind: z
    .enum(['read', 'action', 'sensitive', 'needs_confirmation'])
    .nullable()
    .describe(
      "what the device model's tool profile says the tool is (a device marking overrides it); null: none",
    ),
  gated: z.boolean().describe('needs approval when an operator calls it; never offered to the LLM'),
  gatedBecause: z
    .string()
    .optional()
    .describe(
      'why it is gated: user-only, marked, or sensitive by default (a confirmation asked in its description)',
    ),
  gatedByDefault: z
    .string()
    .nullable()
    .describe(
      'why it is sensitive by default (DESIGN §4: the confirmation phrasing its description uses, or destructiveHint), ' +
        'whether or not an operator lifted that; null when nothing makes it so',
    ),
  nameFlags: z
    .array(z.enum(TOOL_NAME_FLAGS))
    .describe(
      "what discovery noticed about the name: outside MCP's recommended names, bidi controls, invisible characters",
    ),
});
export type Tool = z.infer<typeof toolSchema>;

/** PUT /devices/:id/tools/:name. */
export const markingSchema = z.strictObject({
  toolName: z.string(),
  sensitive: z.boolean().nullable().describe('null: not marked sensitive; false: a default lifted'),
  readOnly: z.boolean().nullable().describe('null: not marked read-only'),
  markedBy: z.uuid(),
  markedAt: instant,
});
export type Marking = z.infer<typeof markingSchema>;

export const orderingRuleSchema = z.strictObject({
  id: z.string(),
  source: z.enum(['config', 'derived']),
  catalogId: z.string().nullable(),
  tool: z.string(),
  requires: z.string(),
  maxAgeMs: z.int(),
  action: z.enum(['run_first', 'refuse']),
  evidence: z.string().nullable(),
});
export type OrderingRule = z.infer<typeof orderingRuleSchema>;

const catalogVersionBase = z.strictObject({
  versionId: z.string(),
  version: z.int(),
  hash: z.string(),
  toolCount: z.int(),
  serverName: z.string().nullable(),
  serverVersion: z.string().nullable(),
  protocolVersion: z.string().nullable(),
  discoveredAt: instant,
  lastConfirmedAt: instant,
});

/** GET /devices/:id/catalogs: every version discovery recorded. */
export const catalogVersionSchema = catalogVersionBase.extend({
  catalogId: z.string(),
  diff: z.unknown(),
  current: z.boolean(),
});
export type CatalogVersion = z.infer<typeof catalogVersionSchema>;

/** GET /devices/:id/tools: the catalog in force, every tool with its gate, the ordering rules in force. */
export const deviceCatalogSchema = z.strictObject({
  deviceId: z.string(),
  catalog: catalogVersionBase.nullable(),
  tools: z.array(toolSchema),
  platformTools: z.array(toolSchema),
  otherMarkings: z.array(markingSchema).describe('markings of tools the current catalog does not declare'),
  orderingRules: z.array(orderingRuleSchema),
});
export type DeviceCatalog = z.infer<typeof deviceCatalogSchema>;

/** GET /devices/:id/catalogs/diff. */
export const catalogDiffSchema = z.strictObject({
  from: z.int(),
  to: z.int(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(
    z.strictObject({
      name: z.string(),
      fields: z.array(z.enum(['description', 'inputSchema', 'annotations', 'userOnly'])),
    }),
  ),
});
export type CatalogDiff = z.infer<typeof catalogDiffSchema>;
