import { createHash } from 'node:crypto';
import { canonicalJson } from '@fleet/domain';
import type { ListedTool } from '@fleet/protocol';

/** The part of a tool that identifies a catalog's content (order included: it is the firmware's order). */
export function toolIdentity(tool: ListedTool): Record<string, unknown> {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    // Only where declared: a catalog without output schemas keeps the hash it always had.
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
  };
}

/** sha256 of the whole tool list, user-only tools included: an unchanged catalog keeps its version. */
export function catalogHash(tools: readonly ListedTool[]): string {
  return createHash('sha256')
    .update(canonicalJson(tools.map(toolIdentity)))
    .digest('hex');
}

export interface CatalogDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

export function diffCatalogs(before: readonly ListedTool[], after: readonly ListedTool[]): CatalogDiff {
  const old = new Map(before.map((t) => [t.name, canonicalJson(toolIdentity(t))]));
  const now = new Map(after.map((t) => [t.name, canonicalJson(toolIdentity(t))]));
  return {
    added: [...now.keys()].filter((n) => !old.has(n)),
    removed: [...old.keys()].filter((n) => !now.has(n)),
    changed: [...now.keys()].filter((n) => old.has(n) && old.get(n) !== now.get(n)),
  };
}
