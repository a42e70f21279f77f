import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface CatalogVersionRow {
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
  current: boolean;
}

export interface ToolRow {
  position: number;
  name: string;
  description: string;
  inputSchema: unknown;
  annotations: unknown;
  userOnly: boolean;
}

export interface MarkingRow {
  toolName: string;
  sensitive: boolean;
  markedBy: string;
  markedAt: Date;
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

const VERSION_COLUMNS = `v.id AS "versionId", v.version, v.catalog_id AS "catalogId", c.hash, c.tool_count AS "toolCount",
  v.server_name AS "serverName", v.server_version AS "serverVersion", v.protocol_version AS "protocolVersion",
  v.diff, v.discovered_at AS "discoveredAt", v.last_confirmed_at AS "lastConfirmedAt",
  v.id IS NOT DISTINCT FROM d.catalog_version_id AS current`;

/** Catalogs as discovery recorded them, operators' markings and the ordering rules. Read-only but markings. */
@Injectable()
export class DeviceToolsRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async currentVersion(deviceId: string): Promise<CatalogVersionRow | undefined> {
    const { rows } = await this.pool.query<CatalogVersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM device d
         JOIN device_catalog_version v ON v.id = d.catalog_version_id JOIN tool_catalog c ON c.id = v.catalog_id
        WHERE d.id = $1`,
      [deviceId],
    );
    return rows[0];
  }

  async versions(deviceId: string): Promise<CatalogVersionRow[]> {
    const { rows } = await this.pool.query<CatalogVersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM device_catalog_version v
         JOIN tool_catalog c ON c.id = v.catalog_id JOIN device d ON d.id = v.device_id
        WHERE v.device_id = $1 ORDER BY v.version DESC`,
      [deviceId],
    );
    return rows;
  }

  async tools(catalogId: string): Promise<ToolRow[]> {
    const { rows } = await this.pool.query<ToolRow>(
      `SELECT position, name, description, input_schema AS "inputSchema", annotations, user_only AS "userOnly"
         FROM tool WHERE catalog_id = $1 ORDER BY position`,
      [catalogId],
    );
    return rows;
  }

  async markings(deviceId: string): Promise<MarkingRow[]> {
    const { rows } = await this.pool.query<MarkingRow>(
      `SELECT tool_name AS "toolName", sensitive, marked_by AS "markedBy", marked_at AS "markedAt"
         FROM tool_marking WHERE device_id = $1 ORDER BY tool_name`,
      [deviceId],
    );
    return rows;
  }

  /** Rules from configuration apply to every device; derived ones only to the catalog they were read from. */
  async orderingRules(catalogId: string | undefined): Promise<OrderingRuleRow[]> {
    const { rows } = await this.pool.query<OrderingRuleRow>(
      `SELECT id, source, catalog_id AS "catalogId", tool, requires, max_age_ms AS "maxAgeMs", action, evidence
         FROM ordering_rule WHERE catalog_id IS NULL OR catalog_id = $1 ORDER BY tool, requires`,
      [catalogId ?? null],
    );
    return rows;
  }

  async mark(
    deviceId: string,
    toolName: string,
    sensitive: boolean,
    operatorId: string,
  ): Promise<MarkingRow> {
    const { rows } = await this.pool.query<MarkingRow>(
      `INSERT INTO tool_marking (device_id, tool_name, sensitive, marked_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (device_id, tool_name)
       DO UPDATE SET sensitive = EXCLUDED.sensitive, marked_by = EXCLUDED.marked_by, marked_at = now()
       RETURNING tool_name AS "toolName", sensitive, marked_by AS "markedBy", marked_at AS "markedAt"`,
      [deviceId, toolName, sensitive, operatorId],
    );
    return rows[0]!;
  }
}
