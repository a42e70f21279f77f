import type { Pool, PoolClient } from 'pg';
import { SYSTEM_REBOOT_TOOL } from '@fleet/domain';

/**
 * DESIGN §4: a tool is user-only when the device declares `annotations.audience` with "user" in its current
 * catalog, or an operator marked it sensitive; `system.reboot` always is. Undefined when the device has not been
 * discovered yet (nobody can tell; the orchestrator decides once it knows the catalog).
 */
export async function isUserOnlyTool(
  db: Pool | PoolClient,
  deviceId: string,
  tool: string,
): Promise<boolean | undefined> {
  if (tool === SYSTEM_REBOOT_TOOL) return true;
  const { rows } = await db.query<{
    discovered: boolean;
    user_only: boolean | null;
    sensitive: boolean | null;
  }>(
    `SELECT d.catalog_version_id IS NOT NULL AS discovered, t.user_only, m.sensitive
       FROM device d
       LEFT JOIN device_catalog_version v ON v.id = d.catalog_version_id
       LEFT JOIN tool t ON t.catalog_id = v.catalog_id AND t.name = $2
       LEFT JOIN tool_marking m ON m.device_id = d.id AND m.tool_name = $2
      WHERE d.id = $1`,
    [deviceId, tool],
  );
  const row = rows[0];
  if (!row) return undefined;
  if (row.sensitive) return true;
  if (!row.discovered) return undefined;
  return row.user_only ?? false; // a tool the device does not have: not gated here, rejected as unknown later
}
