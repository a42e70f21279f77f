import type { Capability, ReadbackSpec, ToolProfileBody, ToolProfileView } from '@fleet/domain';
import { sql, type Database } from '../../client/kysely';
import { jsonParam } from '../../client/json-columns';

export interface ToolProfileRow extends ToolProfileView {
  id: string;
  updatedBy: string;
  updatedAt: Date;
}

const COLUMNS = [
  'id',
  'model',
  'catalog_hash as catalogHash',
  'tool_name as tool',
  'kind',
  'readback',
  'capability',
  'done_when as doneWhen',
  'updated_by as updatedBy',
  'updated_at as updatedAt',
] as const;

type Selected = Omit<ToolProfileRow, 'readback' | 'capability'> & { readback: unknown; capability: unknown };

function toRow(r: Selected): ToolProfileRow {
  return { ...r, readback: r.readback as ReadbackSpec | null, capability: r.capability as Capability | null };
}

/**
 * The tool profiles (DESIGN §4, §5): what a tool is on every device of a model. People write them through the
 * API (audited there) or import them; the orchestrator reads them with each call (libs/db loadCallsToRun).
 */
export class ToolProfilesRepository {
  constructor(private readonly db: Database) {}

  async list(filter: { model?: string; tool?: string } = {}): Promise<ToolProfileRow[]> {
    let q = this.db.selectFrom('tool_profile').select(COLUMNS);
    if (filter.model) q = q.where('model', '=', filter.model);
    if (filter.tool) q = q.where('tool_name', '=', filter.tool);
    const rows = await q.orderBy('model').orderBy('catalog_hash').orderBy('tool_name').execute();
    return rows.map(toRow);
  }

  /** The profiles of some models (a campaign resolving a capability over its targets). */
  async ofModels(models: readonly string[]): Promise<ToolProfileRow[]> {
    if (models.length === 0) return [];
    const rows = await this.db
      .selectFrom('tool_profile')
      .select(COLUMNS)
      .where('model', 'in', models)
      .execute();
    return rows.map(toRow);
  }

  /** Writes the profile of one (model, catalog, tool), replacing what was there. */
  async put(body: ToolProfileBody, by: string): Promise<ToolProfileRow> {
    const values = {
      model: body.model,
      catalog_hash: body.catalogHash,
      tool_name: body.tool,
      kind: body.kind,
      readback: body.readback ? jsonParam(body.readback) : null,
      capability: body.capability ? jsonParam(body.capability) : null,
      done_when: body.doneWhen,
      updated_by: by,
      updated_at: sql<Date>`now()`,
    };
    const row = await this.db
      .insertInto('tool_profile')
      .values({ id: sql<string>`gen_random_uuid()`, ...values })
      .onConflict((oc) => oc.columns(['model', 'catalog_hash', 'tool_name']).doUpdateSet(values))
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toRow(row);
  }

  async get(id: string): Promise<ToolProfileRow | undefined> {
    const row = await this.db
      .selectFrom('tool_profile')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRow(row);
  }

  async delete(id: string): Promise<ToolProfileRow | undefined> {
    const row = await this.db
      .deleteFrom('tool_profile')
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row && toRow(row);
  }
}
