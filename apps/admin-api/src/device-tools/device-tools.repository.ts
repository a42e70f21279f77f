import { Inject, Injectable } from '@nestjs/common';
import {
  CATALOG_VERSION_COLUMNS,
  createDatabase,
  DeviceCatalogRepository,
  sql,
  ToolProfilesRepository,
  type CurrentCatalogVersion,
  type Database,
  type Pool,
} from '@fleet/db';
import type { ToolProfileView } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';

export type CatalogVersionRow = CurrentCatalogVersion & { current: boolean };

export interface ToolRow {
  position: number;
  name: string;
  description: string;
  inputSchema: unknown;
  /** The device's declared outputSchema (MCP 2025-06-18), or null. */
  outputSchema: unknown;
  annotations: unknown;
  userOnly: boolean;
  /** What discovery noticed about the name (libs/domain toolNameFlags). */
  nameFlags: string[];
}

export interface MarkingRow {
  toolName: string;
  sensitive: boolean | null;
  readOnly: boolean | null;
  markedBy: string;
  markedAt: Date;
}

/** What a PUT of a marking changes: a field left out keeps its stored value; null clears it. */
export interface MarkingChange {
  sensitive?: boolean;
  readOnly?: boolean | null;
}

export interface OrderingRuleRow {
  id: string;
  source: 'config' | 'derived';
  catalogId: string | null;
  tool: string;
  requires: string;
  maxAgeMs: number;
  action: 'run_first' | 'refuse';
  evidence: string | null;
}

const MARKING = [
  'tool_name as toolName',
  'sensitive',
  'read_only as readOnly',
  'marked_by as markedBy',
  'marked_at as markedAt',
] as const;

/** Catalogs as discovery recorded them, operators' markings and the ordering rules. Read-only but markings. */
@Injectable()
export class DeviceToolsRepository {
  private readonly db: Database;
  private readonly catalogs: DeviceCatalogRepository;
  private readonly profiles: ToolProfilesRepository;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
    this.catalogs = new DeviceCatalogRepository(this.db);
    this.profiles = new ToolProfilesRepository(this.db);
  }

  /** The tool profiles of the device's model (its board, or the server name its catalog gave), and its board. */
  async profilesOfModel(deviceId: string): Promise<{ board: string | null; profiles: ToolProfileView[] }> {
    const device = await this.db
      .selectFrom('device as d')
      .leftJoin('device_catalog_version as v', 'v.id', 'd.catalog_version_id')
      .select(['d.board', 'v.server_name as serverName'])
      .where('d.id', '=', deviceId)
      .executeTakeFirst();
    const models = [device?.board, device?.serverName].filter((m): m is string => !!m);
    return { board: device?.board ?? null, profiles: await this.profiles.ofModels(models) };
  }

  async currentVersion(deviceId: string): Promise<CatalogVersionRow | undefined> {
    const version = await this.catalogs.currentVersion(deviceId);
    return version && { ...version, current: true };
  }

  versions(deviceId: string): Promise<CatalogVersionRow[]> {
    return this.db
      .selectFrom('device_catalog_version as v')
      .innerJoin('tool_catalog as c', 'c.id', 'v.catalog_id')
      .innerJoin('device as d', 'd.id', 'v.device_id')
      .select([
        ...CATALOG_VERSION_COLUMNS,
        sql<boolean>`v.id IS NOT DISTINCT FROM d.catalog_version_id`.as('current'),
      ])
      .where('v.device_id', '=', deviceId)
      .orderBy('v.version', 'desc')
      .execute();
  }

  tools(catalogId: string): Promise<ToolRow[]> {
    return this.db
      .selectFrom('tool')
      .select([
        'position',
        'name',
        'description',
        'input_schema as inputSchema',
        'output_schema as outputSchema',
        'annotations',
        'user_only as userOnly',
        'name_flags as nameFlags',
      ])
      .where('catalog_id', '=', catalogId)
      .orderBy('position')
      .execute();
  }

  markings(deviceId: string): Promise<MarkingRow[]> {
    return this.db
      .selectFrom('tool_marking')
      .select(MARKING)
      .where('device_id', '=', deviceId)
      .orderBy('tool_name')
      .execute();
  }

  /** Rules from configuration apply to every device; derived ones only to the catalog they were read from. */
  orderingRules(catalogId: string | undefined): Promise<OrderingRuleRow[]> {
    return this.db
      .selectFrom('ordering_rule')
      .select([
        'id',
        'source',
        'catalog_id as catalogId',
        'tool',
        'requires',
        'max_age_ms as maxAgeMs',
        'action',
        'evidence',
      ])
      .where((eb) =>
        catalogId === undefined
          ? eb('catalog_id', 'is', null)
          : eb.or([eb('catalog_id', 'is', null), eb('catalog_id', '=', catalogId)]),
      )
      .orderBy('tool')
      .orderBy('requires')
      .execute();
  }

  /** Sets the fields given (undefined keeps the stored one; a new marking starts with both unmarked). */
  mark(deviceId: string, toolName: string, change: MarkingChange, operatorId: string): Promise<MarkingRow> {
    return this.db
      .insertInto('tool_marking')
      .values({
        device_id: deviceId,
        tool_name: toolName,
        sensitive: change.sensitive ?? null,
        read_only: change.readOnly ?? null,
        marked_by: operatorId,
      })
      .onConflict((c) =>
        c.columns(['device_id', 'tool_name']).doUpdateSet((eb) => ({
          ...(change.sensitive !== undefined ? { sensitive: eb.ref('excluded.sensitive') } : {}),
          ...(change.readOnly !== undefined ? { read_only: eb.ref('excluded.read_only') } : {}),
          marked_by: eb.ref('excluded.marked_by'),
          marked_at: sql<Date>`now()`,
        })),
      )
      .returning(MARKING)
      .executeTakeFirstOrThrow();
  }
}
