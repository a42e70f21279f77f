import { canonicalJson } from '@fleet/domain';
import type { ToolRow } from './device-tools.repository';

export interface CatalogDiff {
  added: string[];
  removed: string[];
  changed: { name: string; fields: ('description' | 'inputSchema' | 'annotations' | 'userOnly')[] }[];
}

/** What changed between two catalogs, tool by tool (schemas compared canonically: key order is not a change). */
export function diffCatalogs(before: ToolRow[], after: ToolRow[]): CatalogDiff {
  const old = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  const changed: CatalogDiff['changed'] = [];
  for (const [name, tool] of now) {
    const prior = old.get(name);
    if (!prior) continue;
    const fields: CatalogDiff['changed'][number]['fields'] = [];
    if (prior.description !== tool.description) fields.push('description');
    if (canonicalJson(prior.inputSchema) !== canonicalJson(tool.inputSchema)) fields.push('inputSchema');
    if (canonicalJson(prior.annotations) !== canonicalJson(tool.annotations)) fields.push('annotations');
    if (prior.userOnly !== tool.userOnly) fields.push('userOnly');
    if (fields.length > 0) changed.push({ name, fields });
  }
  return {
    added: [...now.keys()].filter((n) => !old.has(n)).sort(),
    removed: [...old.keys()].filter((n) => !now.has(n)).sort(),
    changed: changed.sort((a, b) => a.name.localeCompare(b.name)),
  };
}
