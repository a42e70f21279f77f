import type { ReadbackPairing } from '@fleet/domain';
import { sql, type Database } from '../../client/kysely';
import { jsonParam } from '../../client/json-columns';

export interface ProposalRow {
  id: string;
  model: string;
  catalogHash: string;
  tool: string;
  argument: string;
  value: unknown;
  readerTool: string;
  path: string;
  why: string;
  state: 'pending' | 'accepted' | 'rejected';
  decidedBy: string | null;
  decidedAt: Date | null;
  createdAt: Date;
}

/** A catalog content, with the model the devices reporting it are known by (their board, else their server). */
export interface CatalogOfModel {
  model: string;
  catalogHash: string;
}

const COLUMNS = [
  'id',
  'model',
  'catalog_hash as catalogHash',
  'tool_name as tool',
  'argument',
  'value',
  'reader_tool as readerTool',
  'path',
  'why',
  'state',
  'decided_by as decidedBy',
  'decided_at as decidedAt',
  'created_at as createdAt',
] as const;

/** Pairings the platform saw in catalogs, for a person to accept or reject (never applied silently). */
export class ToolProfileProposalsRepository {
  constructor(private readonly db: Database) {}

  /** Records pairings not seen before (a rejected or accepted one stays decided). */
  async record(at: CatalogOfModel, pairings: readonly ReadbackPairing[]): Promise<void> {
    if (pairings.length === 0) return;
    await this.db
      .insertInto('tool_profile_proposal')
      .values(
        pairings.map((p) => ({
          id: sql<string>`gen_random_uuid()`,
          model: at.model,
          catalog_hash: at.catalogHash,
          tool_name: p.tool,
          argument: p.readback.argument ?? '',
          value: p.readback.value === undefined ? null : jsonParam(p.readback.value),
          reader_tool: p.readback.tool,
          path: p.readback.path,
          why: p.why,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  list(state?: ProposalRow['state']): Promise<ProposalRow[]> {
    let q = this.db.selectFrom('tool_profile_proposal').select(COLUMNS);
    if (state) q = q.where('state', '=', state);
    return q.orderBy('model').orderBy('catalog_hash').orderBy('tool_name').execute();
  }

  get(id: string): Promise<ProposalRow | undefined> {
    return this.db
      .selectFrom('tool_profile_proposal')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Decides a pending proposal; undefined when it was not pending (decided already, or no such proposal). */
  decide(id: string, state: 'accepted' | 'rejected', by: string): Promise<ProposalRow | undefined> {
    return this.db
      .updateTable('tool_profile_proposal')
      .set({ state, decided_by: by, decided_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .returning(COLUMNS)
      .executeTakeFirst();
  }
}
