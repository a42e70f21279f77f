import { SYSTEM_REBOOT_TOOL, toolSensitivity } from '@fleet/domain';
import type { Database } from '@fleet/db';

/**
 * DESIGN §4: whether a tool waits for a person, by the one tool-access rule of libs/domain (user-only, an
 * operator's marking, a confirmation in the description, destructiveHint); `system.reboot` always does.
 * Undefined when the device has not been discovered yet (nobody can tell; the orchestrator decides once it
 * knows the catalog).
 */
export async function isUserOnlyTool(
  db: Database,
  deviceId: string,
  tool: string,
): Promise<boolean | undefined> {
  if (tool === SYSTEM_REBOOT_TOOL) return true;
  const row = await db
    .selectFrom('device as d')
    .leftJoin('device_catalog_version as v', 'v.id', 'd.catalog_version_id')
    .leftJoin('tool as t', (j) => j.onRef('t.catalog_id', '=', 'v.catalog_id').on('t.name', '=', tool))
    .leftJoin('tool_marking as m', (j) => j.onRef('m.device_id', '=', 'd.id').on('m.tool_name', '=', tool))
    .select([
      'd.catalog_version_id',
      't.name',
      't.description',
      't.user_only',
      't.annotations',
      'm.sensitive',
    ])
    .where('d.id', '=', deviceId)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.sensitive === true) return true;
  if (row.catalog_version_id === null) return undefined;
  // A tool the device does not have: not gated here, rejected as unknown later.
  if (row.name === null) return false;
  const facts = {
    name: row.name,
    description: row.description ?? '',
    userOnly: row.user_only ?? false,
    annotations: row.annotations,
  };
  return toolSensitivity(facts, row.sensitive ?? undefined).sensitive;
}
