import type { ToolKind } from '@fleet/domain';
import { queryCompiler, sql, type Row } from '../../client/kysely';
import { executeNamed, type StatementTarget } from '../named-statements.repository';

/** What the user-only gate reads of one tool on one device (libs/domain's toolSensitivity decides from it). */
export interface GateFacts {
  /** The device's status: a producer that refuses revoked devices learns it from the same read. */
  deviceStatus: Row<'device'>['status'];
  /** Null when the device has not been discovered yet. */
  catalogVersionId: string | null;
  /** Null when the device's catalog has no tool of that name. */
  name: string | null;
  description: string | null;
  userOnly: boolean | null;
  annotations: unknown;
  /** The operator's marking on this device (null: none). */
  sensitive: boolean | null;
  /** What the tool profile of the device's model and catalog says the tool is (null: no profile). */
  profileKind: ToolKind | null;
}

/** Compiled once; the two arrays are placeholders for each read's own. */
const GATE_FACTS = sql<GateFacts & { ord: string }>`
    SELECT a.ord, d.status AS "deviceStatus", d.catalog_version_id AS "catalogVersionId", t.name, t.description, t.user_only AS "userOnly",
           t.annotations, m.sensitive, p.kind AS "profileKind"
      FROM unnest(${[] as string[]}::text[], ${[] as string[]}::text[])
             WITH ORDINALITY AS a(device_id, tool, ord)
      JOIN device d ON d.id = a.device_id
      LEFT JOIN device_catalog_version v ON v.id = d.catalog_version_id
      LEFT JOIN tool t ON t.catalog_id = v.catalog_id AND t.name = a.tool
      LEFT JOIN tool_marking m ON m.device_id = d.id AND m.tool_name = a.tool
      LEFT JOIN tool_catalog c ON c.id = v.catalog_id
      -- The profile libs/domain profileFor picks: one for this catalog over one for every catalog of the model,
      -- the registered board over the server name.
      LEFT JOIN LATERAL (
        SELECT p.kind FROM tool_profile p
         WHERE p.tool_name = a.tool AND p.model IN (d.board, v.server_name) AND p.catalog_hash IN ('', c.hash)
         ORDER BY p.catalog_hash DESC, (p.model IS NOT DISTINCT FROM d.board) DESC LIMIT 1) p ON true`.compile(
  queryCompiler,
);

/**
 * The gate's facts of several (device, tool) pairs in one statement, in input order; undefined for a device that
 * does not exist. Producers ask it for every operator call, so the asks of one turn share a round trip.
 */
export async function gateFactsOf(
  db: StatementTarget,
  asks: readonly { deviceId: string; tool: string }[],
): Promise<(GateFacts | undefined)[]> {
  // A named statement on a pool: every operator call makes this read, which Kysely's driver had parsed and
  // planned for every batch.
  const rows = await executeNamed(db, 'gate-facts', GATE_FACTS, [
    asks.map((a) => a.deviceId),
    asks.map((a) => a.tool),
  ]);
  const byOrdinal = new Map(rows.map(({ ord, ...facts }) => [Number(ord), facts]));
  return asks.map((_, i) => byOrdinal.get(i + 1));
}
