import { proposeReadbacks } from '@fleet/domain';
import type { ToolProfileProposalsRepository } from '@fleet/db';
import type { CatalogView } from './catalog-view';

/**
 * The setter/reader pairings a catalog shows (libs/domain proposeReadbacks), worked out once when discovery
 * stores a catalog and recorded for a person to accept or reject (never applied: DESIGN §5). Listing them is
 * then a read. Once per model and catalog content in this replica's life: a fleet powering on shares a few
 * catalogs, and a pairing already recorded (or decided) stays as it is.
 */
export class ReadbackProposals {
  private readonly recorded = new Set<string>();

  constructor(private readonly proposals: Pick<ToolProfileProposalsRepository, 'record'>) {}

  /** `model` as the profiles know a device: its registered board, else the server name initialize gave. */
  async catalogStored(model: string | null | undefined, view: CatalogView): Promise<void> {
    if (!model) return;
    const key = `${model}\u0000${view.hash}`;
    if (this.recorded.has(key)) return;
    const tools = [...view.tools.values()].map((t) => ({ name: t.name, inputSchema: t.inputSchema }));
    await this.proposals.record({ model, catalogHash: view.hash }, proposeReadbacks(tools));
    this.recorded.add(key);
  }
}
