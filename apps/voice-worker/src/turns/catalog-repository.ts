import type { Pool } from 'pg';

export interface CatalogToolRow {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  userOnly: boolean;
  /** An operator marked it sensitive for this device (DESIGN §4: user-only for the LLM too). */
  sensitive: boolean;
}

/** The device's current catalog (every tool, user-only included), in tools/list order. */
export class CatalogRepository {
  constructor(private readonly pool: Pool) {}

  /** Undefined when the device was never discovered (nobody knows what it can do yet). */
  async currentTools(deviceId: string): Promise<CatalogToolRow[] | undefined> {
    const { rows } = await this.pool.query<CatalogToolRow & { discovered: boolean }>(
      `SELECT d.catalog_version_id IS NOT NULL AS discovered, t.name, t.description,
              t.input_schema AS "inputSchema", t.user_only AS "userOnly", coalesce(m.sensitive, false) AS sensitive
         FROM device d
         LEFT JOIN device_catalog_version v ON v.id = d.catalog_version_id
         LEFT JOIN tool t ON t.catalog_id = v.catalog_id
         LEFT JOIN tool_marking m ON m.device_id = d.id AND m.tool_name = t.name
        WHERE d.id = $1
        ORDER BY t.position`,
      [deviceId],
    );
    if (!rows[0]?.discovered) return undefined;
    return rows.filter((r) => r.name !== null).map(({ discovered: _d, ...tool }) => tool);
  }
}
