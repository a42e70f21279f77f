import { jsonObject } from '../../client/json-columns';
import type { Database } from '../../client/kysely';

/** One tool of a device's current catalog, with the operator's marking for this device. */
export interface CurrentCatalogTool {
  position: number;
  name: string;
  description: string;
  /** Discovery stored only tools whose schema is a JSON object (xiaozhi §3.2: tools/list `inputSchema`). */
  inputSchema: Record<string, unknown>;
  /** The outputSchema the device declared (MCP 2025-06-18), or null. */
  outputSchema: Record<string, unknown> | null;
  annotations: unknown;
  userOnly: boolean;
  /**
   * The operator's sensitive marking for this device: true makes it user-only for the LLM too, false lifts the
   * default its description gave it, null is no marking (DESIGN §4: the decision tells the three apart).
   */
  sensitive: boolean | null;
}

/** The catalog version discovery last confirmed for a device. */
export interface CurrentCatalogVersion {
  versionId: string;
  version: number;
  catalogId: string;
  hash: string;
  toolCount: number;
  serverName: string | null;
  serverVersion: string | null;
  protocolVersion: string | null;
  diff: unknown;
  discoveredAt: Date;
  lastConfirmedAt: Date;
}

/** A catalog version's columns as readers name them (`device_catalog_version as v` joined to `tool_catalog as c`). */
export const CATALOG_VERSION_COLUMNS = [
  'v.id as versionId',
  'v.version',
  'v.catalog_id as catalogId',
  'c.hash',
  'c.tool_count as toolCount',
  'v.server_name as serverName',
  'v.server_version as serverVersion',
  'v.protocol_version as protocolVersion',
  'v.diff',
  'v.discovered_at as discoveredAt',
  'v.last_confirmed_at as lastConfirmedAt',
] as const;

/**
 * "A device's current catalog" (DESIGN §8): the version `device.catalog_version_id` points at, its tools in
 * tools/list order, and this device's markings. Every reader of it goes through here, so the join is written once.
 */
export class DeviceCatalogRepository {
  constructor(private readonly db: Database) {}

  /** Undefined when the device was never discovered (nobody knows what it can do yet). */
  currentVersion(deviceId: string): Promise<CurrentCatalogVersion | undefined> {
    return this.db
      .selectFrom('device as d')
      .innerJoin('device_catalog_version as v', 'v.id', 'd.catalog_version_id')
      .innerJoin('tool_catalog as c', 'c.id', 'v.catalog_id')
      .select(CATALOG_VERSION_COLUMNS)
      .where('d.id', '=', deviceId)
      .executeTakeFirst();
  }

  /** Every tool, user-only included, in tools/list order; undefined when the device was never discovered. */
  async currentTools(deviceId: string): Promise<CurrentCatalogTool[] | undefined> {
    const rows = await this.db
      .selectFrom('device as d')
      .leftJoin('device_catalog_version as v', 'v.id', 'd.catalog_version_id')
      .leftJoin('tool as t', 't.catalog_id', 'v.catalog_id')
      .leftJoin('tool_marking as m', (j) =>
        j.onRef('m.device_id', '=', 'd.id').onRef('m.tool_name', '=', 't.name'),
      )
      .select([
        'd.catalog_version_id',
        't.position',
        't.name',
        't.description',
        't.input_schema',
        't.output_schema',
        't.annotations',
        't.user_only',
        'm.sensitive',
      ])
      .where('d.id', '=', deviceId)
      .orderBy('t.position')
      .execute();
    if (!rows[0]?.catalog_version_id) return undefined;
    const tools: CurrentCatalogTool[] = [];
    for (const r of rows) {
      if (r.name === null || r.position === null || r.description === null || r.user_only === null) continue;
      tools.push({
        position: r.position,
        name: r.name,
        description: r.description,
        inputSchema: jsonObject(r.input_schema, `tool ${r.name}'s stored inputSchema`),
        outputSchema:
          r.output_schema === null
            ? null
            : jsonObject(r.output_schema, `tool ${r.name}'s stored outputSchema`),
        annotations: r.annotations,
        userOnly: r.user_only,
        sensitive: r.sensitive,
      });
    }
    return tools;
  }
}
