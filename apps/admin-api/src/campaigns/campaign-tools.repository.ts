import { Inject, Injectable } from '@nestjs/common';
import {
  createDatabase,
  databaseOn,
  sql,
  ToolProfilesRepository,
  type Database,
  type Pool,
  type Row,
} from '@fleet/db';
import type { CampaignSelector, ToolProfileView } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';
import type { Tx } from '../infra/transactions';
import type { DeviceTools, ToolDefinition } from './campaign-tool-gate';
import { selectorWhere } from './campaign-targets.repository';

/** What deciding a campaign's gate and binding its approval read of each device: catalog, markings, profiles. */
export interface CampaignToolFacts {
  devices: DeviceTools[];
  profiles: ToolProfileView[];
}

/**
 * The tools a campaign's devices declare, their operators' markings and their models' profiles, read in four
 * statements however many devices match (a fleet shares a few catalogs); the decisions are campaign-tool-gate's.
 */
@Injectable()
export class CampaignToolsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  /** The devices a selector matches now (the preview's and the start's question). */
  ofSelector(selector: CampaignSelector): Promise<CampaignToolFacts> {
    return this.facts(this.db, selectorWhere(selector));
  }

  /** The devices frozen into a campaign (what its approval binds). */
  ofCampaign(tx: Tx, campaignId: string): Promise<CampaignToolFacts> {
    return this.facts(
      databaseOn(tx),
      sql<boolean>`d.id IN (SELECT ct.device_id FROM campaign_target ct WHERE ct.campaign_id = ${campaignId}::uuid)`,
    );
  }

  /** Each frozen device's bound tool hash, as the orchestrator compares it when the device's call runs. */
  async bindHashes(tx: Tx, campaignId: string, bound: { deviceId: string; hash: string }[]): Promise<void> {
    if (bound.length === 0) return;
    await sql`UPDATE campaign_target ct SET approved_tool_hash = b.hash
                FROM unnest(${bound.map((b) => b.deviceId)}::text[], ${bound.map((b) => b.hash)}::text[])
                     AS b(device_id, hash)
               WHERE ct.campaign_id = ${campaignId}::uuid AND ct.device_id = b.device_id`.execute(
      databaseOn(tx),
    );
  }

  private async facts(db: Database, where: ReturnType<typeof selectorWhere>): Promise<CampaignToolFacts> {
    const { rows } = await sql<{
      id: Row<'device'>['id'];
      board: Row<'device'>['board'];
      serverName: Row<'device_catalog_version'>['server_name'] | null;
      catalogId: Row<'device_catalog_version'>['catalog_id'] | null;
      catalogHash: Row<'tool_catalog'>['hash'] | null;
    }>`SELECT d.id, d.board, v.server_name AS "serverName", v.catalog_id AS "catalogId", c.hash AS "catalogHash"
         FROM device d
         LEFT JOIN device_catalog_version v ON v.id = d.catalog_version_id
         LEFT JOIN tool_catalog c ON c.id = v.catalog_id
        WHERE ${where}`.execute(db);
    if (rows.length === 0) return { devices: [], profiles: [] };
    const catalogIds = [...new Set(rows.flatMap((r) => (r.catalogId ? [r.catalogId] : [])))];
    const deviceIds = rows.map((r) => r.id);
    const [tools, markings] = await Promise.all([
      catalogIds.length === 0
        ? []
        : db
            .selectFrom('tool')
            .select([
              'catalog_id as catalogId',
              'name',
              'description',
              'input_schema as inputSchema',
              'annotations',
              'user_only as userOnly',
            ])
            .where('catalog_id', 'in', catalogIds)
            .execute(),
      db
        .selectFrom('tool_marking')
        .select(['device_id as deviceId', 'tool_name as toolName', 'sensitive'])
        .where('device_id', 'in', deviceIds)
        .where('sensitive', 'is not', null)
        .execute(),
    ]);
    const byCatalog = new Map<string, Map<string, ToolDefinition>>();
    for (const { catalogId, ...tool } of tools) {
      const known = byCatalog.get(catalogId) ?? new Map<string, ToolDefinition>();
      known.set(tool.name, tool);
      byCatalog.set(catalogId, known);
    }
    const marked = new Map<string, Map<string, boolean>>();
    for (const m of markings) {
      const mine = marked.get(m.deviceId) ?? new Map<string, boolean>();
      mine.set(m.toolName, m.sensitive!);
      marked.set(m.deviceId, mine);
    }
    const models = [...new Set(rows.flatMap((r) => [r.board, r.serverName]).filter((m): m is string => !!m))];
    return {
      devices: rows.map((r) => ({
        deviceId: r.id,
        discovered: r.catalogId !== null,
        device: { board: r.board, serverName: r.serverName, catalogHash: r.catalogHash },
        tools: (r.catalogId && byCatalog.get(r.catalogId)) || new Map(),
        markings: marked.get(r.id) ?? new Map(),
      })),
      profiles: await new ToolProfilesRepository(db).ofModels(models),
    };
  }
}
