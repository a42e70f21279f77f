import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, databaseOn, sql, type Database, type Pool, type Row } from '@fleet/db';
import {
  CAMPAIGN_TARGET_STATES,
  NO_TOOL_AT_APPROVAL,
  toolHash,
  type CampaignSelector,
  type CampaignTargetState,
} from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';
import type { Tx } from '../infra/transactions';

type TargetTable = Row<'campaign_target'>;

export interface TargetRow {
  id: TargetTable['id'];
  deviceId: TargetTable['device_id'];
  state: TargetTable['state'];
  attempts: TargetTable['attempts'];
  callId: TargetTable['call_id'];
  detail: TargetTable['detail'];
  deadlineAt: TargetTable['deadline_at'];
  updatedAt: TargetTable['updated_at'];
}

/**
 * The devices a selector matches: active ones meeting every criterion given; within `groups` or `tags`, any
 * one of those listed. Shared by the preview and by the freeze, so both count the same devices.
 */
export function selectorWhere(s: CampaignSelector) {
  const where = [sql<boolean>`d.status = 'active'`];
  if (s.deviceIds) where.push(sql<boolean>`d.id = ANY (${s.deviceIds}::text[])`);
  if (s.board !== undefined) where.push(sql<boolean>`d.board = ${s.board}`);
  if (s.firmware !== undefined) where.push(sql<boolean>`d.firmware_version = ${s.firmware}`);
  if (s.online !== undefined) where.push(sql<boolean>`d.online = ${s.online}`);
  if (s.dialect !== undefined) where.push(sql<boolean>`d.dialect = ${s.dialect}::"Dialect"`);
  if (s.groups) {
    where.push(sql<boolean>`EXISTS (SELECT 1 FROM device_group_member m JOIN device_group g ON g.id = m.group_id
                         WHERE m.device_id = d.id AND g.name = ANY (${s.groups}::text[]))`);
  }
  if (s.tags) {
    where.push(
      sql<boolean>`EXISTS (SELECT 1 FROM device_tag t WHERE t.device_id = d.id AND t.tag = ANY (${s.tags}::text[]))`,
    );
  }
  return sql.join(where, sql` AND `);
}

/** Firmware goes only where it suits: a known board among the image's boards, not already on that version. */
function firmwareSkipReason(firmware: { boards: string[]; version: string } | undefined) {
  if (!firmware) return sql<string | null>`NULL`;
  return sql<
    string | null
  >`CASE WHEN d.board IS NULL THEN 'board unknown: the firmware cannot be matched to it'
               WHEN NOT d.board = ANY (${firmware.boards}::text[]) THEN 'board ' || d.board || ' is not among the firmware''s boards'
               WHEN d.firmware_version = ${firmware.version} THEN 'already runs ' || ${firmware.version}::text
          END`;
}

export type Progress = { total: number } & Record<CampaignTargetState, number>;

/** The devices a campaign covers: previewed from the selector, frozen into rows once it may start. */
@Injectable()
export class CampaignTargetsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async preview(selector: CampaignSelector, firmware?: { boards: string[]; version: string }) {
    const where = selectorWhere(selector);
    const skip = firmwareSkipReason(firmware);
    const { rows } = await sql<{
      matched: number;
      online: number;
      willSkip: number;
      byBoard: { board: Row<'device'>['board']; devices: number }[];
      byFirmware: { firmware: Row<'device'>['firmware_version']; devices: number }[];
      byDialect: { dialect: Row<'device'>['dialect']; devices: number }[];
      sample: Row<'device'>['id'][];
    }>`WITH m AS (SELECT d.id, d.online, d.board, d.firmware_version, d.dialect, ${skip} AS skip
                    FROM device d WHERE ${where})
       SELECT (SELECT count(*)::int FROM m) AS matched,
              (SELECT count(*)::int FROM m WHERE online) AS online,
              (SELECT count(*)::int FROM m WHERE skip IS NOT NULL) AS "willSkip",
              coalesce((SELECT json_agg(json_build_object('board', board, 'devices', n) ORDER BY n DESC)
                          FROM (SELECT board, count(*)::int AS n FROM m GROUP BY board) b), '[]') AS "byBoard",
              coalesce((SELECT json_agg(json_build_object('firmware', firmware_version, 'devices', n) ORDER BY n DESC)
                          FROM (SELECT firmware_version, count(*)::int AS n FROM m GROUP BY firmware_version) f), '[]')
                AS "byFirmware",
              coalesce((SELECT json_agg(json_build_object('dialect', dialect, 'devices', n) ORDER BY n DESC)
                          FROM (SELECT dialect, count(*)::int AS n FROM m GROUP BY dialect) x), '[]') AS "byDialect",
              coalesce((SELECT json_agg(id) FROM (SELECT id FROM m ORDER BY id LIMIT 20) s), '[]') AS sample`.execute(
      this.db,
    );
    return rows[0]!;
  }

  /** The approval's (or the start's) snapshot: later devices are not added, later changes not followed. */
  async freeze(
    db: Tx,
    campaignId: string,
    selector: CampaignSelector,
    firmware?: { boards: string[]; version: string },
  ): Promise<{ pending: number; skipped: number }> {
    const campaign = sql`${campaignId}::uuid`;
    const where = selectorWhere(selector);
    const skip = firmwareSkipReason(firmware);
    const { rows } = await sql<
      Pick<TargetTable, 'state'>
    >`INSERT INTO campaign_target (id, campaign_id, device_id, state, detail, updated_at)
       SELECT gen_random_uuid(), ${campaign}, d.id,
              (CASE WHEN s.reason IS NULL THEN 'pending' ELSE 'skipped' END)::"CampaignTargetState", s.reason, now()
         FROM device d CROSS JOIN LATERAL (SELECT ${skip} AS reason) s
        WHERE ${where}
       ON CONFLICT (campaign_id, device_id) DO NOTHING
       RETURNING state`.execute(databaseOn(db));
    return {
      pending: rows.filter((r) => r.state === 'pending').length,
      skipped: rows.filter((r) => r.state === 'skipped').length,
    };
  }

  /**
   * Binds the approval to each frozen device's tool as it is now (DESIGN §4): the hash of its definition in the
   * device's current catalog, or NO_TOOL_AT_APPROVAL. Hashed once per distinct catalog (a fleet shares a few),
   * so approving 10,000 devices costs two statements, not 10,000 hashes.
   */
  async bindTools(db: Tx, campaignId: string, tool: string): Promise<void> {
    const on = databaseOn(db);
    const definitions = await on
      .selectFrom('campaign_target as ct')
      .innerJoin('device as d', 'd.id', 'ct.device_id')
      .innerJoin('device_catalog_version as v', 'v.id', 'd.catalog_version_id')
      .innerJoin('tool as t', (j) => j.onRef('t.catalog_id', '=', 'v.catalog_id').on('t.name', '=', tool))
      .select([
        't.catalog_id as catalogId',
        't.name',
        't.description',
        't.input_schema as inputSchema',
        't.annotations',
      ])
      .distinct()
      .where('ct.campaign_id', '=', campaignId)
      .execute();
    const catalogIds = definitions.map((d) => d.catalogId);
    const hashes = definitions.map((d) => toolHash(d));
    await sql`UPDATE campaign_target ct
                 SET approved_tool_hash = coalesce(h.hash, ${NO_TOOL_AT_APPROVAL})
                FROM device d
                LEFT JOIN device_catalog_version v ON v.id = d.catalog_version_id
                LEFT JOIN unnest(${catalogIds}::uuid[], ${hashes}::text[]) AS h(catalog_id, hash)
                       ON h.catalog_id = v.catalog_id
               WHERE ct.campaign_id = ${campaignId}::uuid AND d.id = ct.device_id`.execute(on);
  }

  /**
   * Devices of a campaign rejected because their tool changed since its approval, less those another campaign
   * already asks approval for again (one not cancelled, which names them in its selector).
   */
  async rejectedForReapproval(campaignId: string, tx?: Tx): Promise<string[]> {
    const { rows } = await sql<{ deviceId: string }>`
      SELECT ct.device_id AS "deviceId" FROM campaign_target ct
       WHERE ct.campaign_id = ${campaignId}::uuid AND ct.state = 'rejected'
         AND NOT EXISTS (SELECT 1 FROM campaign k
                          WHERE k.reapproval_of = ct.campaign_id AND k.state <> 'cancelled'
                            AND k.selector -> 'deviceIds' ? ct.device_id)
       ORDER BY ct.device_id`.execute(tx ? databaseOn(tx) : this.db);
    return rows.map((r) => r.deviceId);
  }

  /** Devices not started yet are cancelled with the campaign; those in progress are the runner's to settle. */
  async cancelPending(db: Tx, campaignId: string): Promise<number> {
    const result = await databaseOn(db)
      .updateTable('campaign_target')
      .set({ state: 'cancelled', detail: 'campaign cancelled', updated_at: sql<Date>`now()` })
      .where('campaign_id', '=', campaignId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async progress(campaignId: string): Promise<Progress> {
    const rows = await this.db
      .selectFrom('campaign_target')
      .select(['state', sql<number>`count(*)::int`.as('n')])
      .where('campaign_id', '=', campaignId)
      .groupBy('state')
      .execute();
    const counts = Object.fromEntries(CAMPAIGN_TARGET_STATES.map((s) => [s, 0])) as Record<
      CampaignTargetState,
      number
    >;
    for (const r of rows) counts[r.state] = r.n;
    return { total: rows.reduce((sum, r) => sum + r.n, 0), ...counts };
  }

  async list(
    campaignId: string,
    state: string | undefined,
    limit: number,
    afterDevice?: string,
  ): Promise<TargetRow[]> {
    let query = this.db
      .selectFrom('campaign_target')
      .select([
        'id',
        'device_id as deviceId',
        'state',
        'attempts',
        'call_id as callId',
        'detail',
        'deadline_at as deadlineAt',
        'updated_at as updatedAt',
      ])
      .where('campaign_id', '=', campaignId);
    if (state) query = query.where(sql<boolean>`state = ${state}::"CampaignTargetState"`);
    if (afterDevice) query = query.where('device_id', '>', afterDevice);
    return query
      .orderBy('device_id')
      .limit(limit + 1)
      .execute();
  }
}
