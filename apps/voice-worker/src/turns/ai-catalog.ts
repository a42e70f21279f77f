import { visibleToMachines } from '@fleet/domain';
import type { ToolSpec } from '../providers/llm/llm-provider';
import type { CatalogToolRow } from './catalog-repository';
import { FunctionNames } from './function-names';

export const PHOTO_TOOL = 'self.camera.take_photo';

export interface AiCatalog {
  /** What the LLM sees: the catalog minus user-only, minus sensitive, minus the photo tool without vision. */
  specs: ToolSpec[];
  /** Over every tool, hidden ones included: a guessed `self_reboot` maps back to `self.reboot` and is refused
   *  by the orchestrator with evidence, instead of vanishing here. */
  names: FunctionNames;
}

export function aiCatalog(rows: readonly CatalogToolRow[], { vision }: { vision: boolean }): AiCatalog {
  const names = new FunctionNames(rows.map((r) => r.name));
  const specs = rows
    // DESIGN §4: the one tool-access rule (libs/domain): user-only, marked, or asking for confirmation stay out,
    // unless an operator lifted that default (`sensitive: false`; null is no marking).
    .filter((r) => visibleToMachines(r, r.sensitive ?? undefined) && (vision || r.name !== PHOTO_TOOL))
    .map((r) => ({
      name: names.functionOf(r.name)!,
      tool: r.name,
      description: r.description,
      parameters: r.inputSchema,
    }));
  return { specs, names };
}
