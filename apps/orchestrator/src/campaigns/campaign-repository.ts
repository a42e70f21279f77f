import type { Pool } from '@fleet/db';
import {
  campaignAbortRuleSchema,
  campaignActionSchema,
  campaignRolloutSchema,
  maintenanceWindowSchema,
  type CampaignAction,
  type CampaignAbortRule,
  type CampaignRollout,
  type CampaignState,
  type CampaignTargetState,
  type MaintenanceWindow,
  type Verdict,
} from '@fleet/domain';
import { z } from 'zod';

export interface CampaignRecord {
  id: string;
  name: string;
  state: CampaignState;
  action: CampaignAction;
  rollout: CampaignRollout;
  abortRule: CampaignAbortRule;
  windows: MaintenanceWindow[] | null;
  deviceTimeoutS: number;
  retries: number;
  skipInSession: boolean;
}

export interface SettledTarget {
  id: string;
  deviceId: string;
  attempts: number;
  verdict: Verdict;
  verdictReason: string | null;
  firmwareVersion: string | null;
}

export interface Candidate {
  id: string;
  deviceId: string;
  state: CampaignTargetState;
  attempts: number;
  online: boolean;
  timeZone: string;
}

/** The campaign runner's reads and writes (state in Postgres, so any replica can continue a campaign). */
export class CampaignRepository {
  constructor(private readonly pool: Pool) {}

  async active(): Promise<CampaignRecord[]> {
    const { rows } = await this.pool.query<{
      id: string;
      name: string;
      state: CampaignState;
      action: unknown;
      rollout: unknown;
      abort_rule: unknown;
      windows: unknown;
      device_timeout_s: number;
      retries: number;
      skip_in_session: boolean;
    }>(
      `SELECT id, name, state, action, rollout, abort_rule, windows, device_timeout_s, retries, skip_in_session
         FROM campaign WHERE state IN ('running', 'paused', 'cancelled', 'aborted')
          AND (state IN ('running', 'paused') OR EXISTS (SELECT 1 FROM campaign_target t WHERE t.campaign_id = campaign.id AND t.state = 'in_progress'))`,
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      state: r.state,
      action: campaignActionSchema.parse(r.action),
      rollout: campaignRolloutSchema.parse(r.rollout),
      abortRule: campaignAbortRuleSchema.parse(r.abort_rule),
      windows: r.windows ? z.array(maintenanceWindowSchema).parse(r.windows) : null,
      deviceTimeoutS: r.device_timeout_s,
      retries: r.retries,
      skipInSession: r.skip_in_session,
    }));
  }

  async counts(
    campaignId: string,
  ): Promise<Record<CampaignTargetState, number> & { startedLastMinute: number; started: number }> {
    const { rows } = await this.pool.query<{
      state: CampaignTargetState;
      n: number;
      recent: number;
      started: number;
    }>(
      `SELECT state, count(*)::int AS n,
              count(*) FILTER (WHERE attempts > 0 AND updated_at > now() - interval '1 minute')::int AS recent,
              count(*) FILTER (WHERE attempts > 0)::int AS started
         FROM campaign_target WHERE campaign_id = $1 GROUP BY state`,
      [campaignId],
    );
    const counts = {
      pending: 0,
      waiting_for_device: 0,
      in_progress: 0,
      verified: 0,
      failed: 0,
      skipped: 0,
      cancelled: 0,
      startedLastMinute: 0,
      started: 0,
    };
    for (const r of rows) {
      counts[r.state] = r.n;
      counts.startedLastMinute += r.recent;
      counts.started += r.started;
    }
    return counts;
  }

  /** Targets whose call has a verdict: they are ready to be settled. */
  async settled(campaignId: string): Promise<SettledTarget[]> {
    const { rows } = await this.pool.query<SettledTarget>(
      `SELECT t.id, t.device_id AS "deviceId", t.attempts, c.verdict, c.verdict_reason AS "verdictReason",
              d.firmware_version AS "firmwareVersion"
         FROM campaign_target t JOIN call c ON c.id = t.call_id JOIN device d ON d.id = t.device_id
        WHERE t.campaign_id = $1 AND t.state = 'in_progress' AND c.verdict IS NOT NULL`,
      [campaignId],
    );
    return rows;
  }

  async candidates(campaignId: string, limit: number): Promise<Candidate[]> {
    const { rows } = await this.pool.query<Candidate>(
      `SELECT t.id, t.device_id AS "deviceId", t.state, t.attempts, d.online,
              coalesce((SELECT g.time_zone FROM device_group_member m JOIN device_group g ON g.id = m.group_id
                         WHERE m.device_id = d.id ORDER BY g.name LIMIT 1), 'UTC') AS "timeZone"
         FROM campaign_target t JOIN device d ON d.id = t.device_id
        WHERE t.campaign_id = $1 AND t.state IN ('pending', 'waiting_for_device')
        ORDER BY (t.state = 'waiting_for_device') DESC, d.online DESC, t.device_id
        LIMIT $2`,
      [campaignId, limit],
    );
    return rows;
  }

  async moveTarget(
    id: string,
    from: CampaignTargetState[],
    to: CampaignTargetState,
    detail: string | null,
    extra: { callId?: string; attempt?: boolean; deadlineS?: number } = {},
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE campaign_target SET state = $3, detail = $4, updated_at = now(),
              call_id = coalesce($5, call_id), attempts = attempts + $6,
              deadline_at = CASE WHEN $7::int IS NULL THEN deadline_at ELSE now() + make_interval(secs => $7::int) END
        WHERE id = $1 AND state = ANY($2::"CampaignTargetState"[])`,
      [id, from, to, detail, extra.callId ?? null, extra.attempt ? 1 : 0, extra.deadlineS ?? null],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Devices that waited offline past their deadline are skipped, not failed (issue 6). */
  async skipOverdue(campaignId: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      `UPDATE campaign_target SET state = 'skipped', detail = 'offline until its deadline', updated_at = now()
        WHERE campaign_id = $1 AND state = 'waiting_for_device' AND deadline_at < now()`,
      [campaignId],
    );
    return rowCount ?? 0;
  }

  async cancelPending(campaignId: string, detail: string): Promise<void> {
    await this.pool.query(
      `UPDATE campaign_target SET state = 'cancelled', detail = $2, updated_at = now()
        WHERE campaign_id = $1 AND state IN ('pending', 'waiting_for_device')`,
      [campaignId, detail],
    );
  }

  async finish(
    campaignId: string,
    from: CampaignState,
    to: 'completed' | 'aborted',
    reason: string,
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE campaign SET state = $3, state_reason = $4, finished_at = now(), updated_at = now() WHERE id = $1 AND state = $2`,
      [campaignId, from, to, reason],
    );
    return (rowCount ?? 0) > 0;
  }

  async firmware(firmwareId: string): Promise<{ id: string; version: string; sha256: string } | undefined> {
    const { rows } = await this.pool.query<{ id: string; version: string; sha256: string }>(
      'SELECT id, version, sha256 FROM firmware WHERE id = $1',
      [firmwareId],
    );
    return rows[0];
  }

  /** The OTA path: the broker offers this image at the device's next check-in (DESIGN §5). */
  async assignFirmware(deviceId: string, firmwareId: string, campaignId: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO firmware_assignment (device_id, firmware_id, campaign_id) VALUES ($1, $2, $3)
       ON CONFLICT (device_id) DO UPDATE SET firmware_id = $2, campaign_id = $3, assigned_at = now(), offered_at = NULL`,
      [deviceId, firmwareId, campaignId],
    );
  }

  async unassignFirmware(deviceId: string, campaignId: string): Promise<void> {
    await this.pool.query('DELETE FROM firmware_assignment WHERE device_id = $1 AND campaign_id = $2', [
      deviceId,
      campaignId,
    ]);
  }
}
