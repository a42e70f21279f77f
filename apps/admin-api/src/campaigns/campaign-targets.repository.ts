import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import {
  CAMPAIGN_TARGET_STATES,
  SYSTEM_REBOOT_TOOL,
  toolSensitivity,
  type CampaignSelector,
  type CampaignTargetState,
} from '@fleet/domain';
import { SqlParams } from '../http/sql';
import { PG_POOL } from '../infra/tokens';
import type { Tx } from '../infra/transactions';
import { firmwareSkipReason, selectorWhere } from './campaign-selector';

export interface TargetRow {
  id: string;
  deviceId: string;
  state: CampaignTargetState;
  attempts: number;
  callId: string | null;
  detail: string | null;
  deadlineAt: Date | null;
  updatedAt: Date;
}

export type Progress = { total: number } & Record<CampaignTargetState, number>;

/** The devices a campaign covers: previewed from the selector, frozen into rows once it may start. */
@Injectable()
export class CampaignTargetsRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async preview(selector: CampaignSelector, firmware?: { boards: string[]; version: string }) {
    const p = new SqlParams();
    const where = selectorWhere(selector, p);
    const skip = firmware ? firmwareSkipReason(p, firmware) : 'NULL';
    const { rows } = await this.pool.query<{
      matched: number;
      online: number;
      willSkip: number;
      byBoard: { board: string | null; devices: number }[];
      byFirmware: { firmware: string | null; devices: number }[];
      byDialect: { dialect: string; devices: number }[];
      sample: string[];
    }>(
      `WITH m AS (SELECT d.id, d.online, d.board, d.firmware_version, d.dialect, ${skip} AS skip
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
              coalesce((SELECT json_agg(id) FROM (SELECT id FROM m ORDER BY id LIMIT 20) s), '[]') AS sample`,
      p.values,
    );
    return rows[0]!;
  }

  /**
   * Whether calling `tool` on these devices needs a person's approval, by the one tool-access rule of
   * libs/domain (DESIGN §4, §8): some device declares it user-only, has it marked sensitive, describes it as
   * asking for confirmation (or destructive) without an operator lifting that, or has no catalog yet (nobody
   * can tell, so it is treated as gated). The distinct definitions are loaded, the decision is made here.
   */
  async toolIsGated(selector: CampaignSelector, tool: string): Promise<boolean> {
    if (tool === SYSTEM_REBOOT_TOOL) return true;
    const p = new SqlParams();
    const t = p.add(tool);
    const where = selectorWhere(selector, p);
    const { rows } = await this.pool.query<{
      discovered: boolean;
      description: string | null;
      userOnly: boolean | null;
      annotations: unknown;
      marking: boolean | null;
    }>(
      `SELECT DISTINCT d.catalog_version_id IS NOT NULL AS discovered, tl.description, tl.user_only AS "userOnly",
              tl.annotations, mk.sensitive AS marking
         FROM device d
         LEFT JOIN device_catalog_version v ON v.id = d.catalog_version_id
         LEFT JOIN tool tl ON tl.catalog_id = v.catalog_id AND tl.name = ${t}
         LEFT JOIN tool_marking mk ON mk.device_id = d.id AND mk.tool_name = ${t}
        WHERE ${where}`,
      p.values,
    );
    return rows.some(
      (r) =>
        !r.discovered ||
        toolSensitivity(
          {
            name: tool,
            description: r.description ?? '',
            userOnly: r.userOnly ?? false,
            annotations: r.annotations,
          },
          r.marking ?? undefined,
        ).sensitive,
    );
  }

  /** The approval's (or the start's) snapshot: later devices are not added, later changes not followed. */
  async freeze(
    db: Tx,
    campaignId: string,
    selector: CampaignSelector,
    firmware?: { boards: string[]; version: string },
  ): Promise<{ pending: number; skipped: number }> {
    const p = new SqlParams();
    const campaign = p.add(campaignId);
    const where = selectorWhere(selector, p);
    const skip = firmware ? firmwareSkipReason(p, firmware) : 'NULL';
    const { rows } = await db.query<{ state: CampaignTargetState }>(
      `INSERT INTO campaign_target (id, campaign_id, device_id, state, detail, updated_at)
       SELECT gen_random_uuid(), ${campaign}, d.id,
              (CASE WHEN s.reason IS NULL THEN 'pending' ELSE 'skipped' END)::"CampaignTargetState", s.reason, now()
         FROM device d CROSS JOIN LATERAL (SELECT ${skip} AS reason) s
        WHERE ${where}
       ON CONFLICT (campaign_id, device_id) DO NOTHING
       RETURNING state`,
      p.values,
    );
    return {
      pending: rows.filter((r) => r.state === 'pending').length,
      skipped: rows.filter((r) => r.state === 'skipped').length,
    };
  }

  /** Devices not started yet are cancelled with the campaign; those in progress are the runner's to settle. */
  async cancelPending(db: Tx, campaignId: string): Promise<number> {
    const { rowCount } = await db.query(
      `UPDATE campaign_target SET state = 'cancelled', detail = 'campaign cancelled', updated_at = now()
        WHERE campaign_id = $1 AND state = 'pending'`,
      [campaignId],
    );
    return rowCount ?? 0;
  }

  async progress(campaignId: string): Promise<Progress> {
    const { rows } = await this.pool.query<{ state: CampaignTargetState; n: number }>(
      'SELECT state, count(*)::int AS n FROM campaign_target WHERE campaign_id = $1 GROUP BY state',
      [campaignId],
    );
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
    const p = new SqlParams();
    const where = [`campaign_id = ${p.add(campaignId)}`];
    if (state) where.push(`state = ${p.add(state)}::"CampaignTargetState"`);
    if (afterDevice) where.push(`device_id > ${p.add(afterDevice)}`);
    const { rows } = await this.pool.query<TargetRow>(
      `SELECT id, device_id AS "deviceId", state, attempts, call_id AS "callId", detail, deadline_at AS "deadlineAt",
              updated_at AS "updatedAt"
         FROM campaign_target WHERE ${where.join(' AND ')} ORDER BY device_id LIMIT ${p.add(limit + 1)}`,
      p.values,
    );
    return rows;
  }
}
