import type { Pool } from '@fleet/db';
import {
  campaignPhasesSchema,
  type CampaignPhase,
  type PhaseCounts,
  type PhaseLogEntry,
  type VersionSignals,
} from '@fleet/domain';

export interface PhaseState {
  phases: CampaignPhase[];
  index: number;
  soakSince: Date | null;
  /** The definition sealed when the campaign started (null for campaigns made before definitions were sealed). */
  definition: unknown;
}

/** The phase runner's reads and writes: which targets belong to which phase, and how each phase's gate went. */
export class PhaseRepository {
  constructor(private readonly pool: Pool) {}

  async state(campaignId: string): Promise<PhaseState | undefined> {
    const { rows } = await this.pool.query<{
      phases: unknown;
      phase_index: number;
      phase_soak_since: Date | null;
      definition: unknown;
    }>('SELECT phases, phase_index, phase_soak_since, definition FROM campaign WHERE id = $1', [campaignId]);
    const r = rows[0];
    if (!r) return undefined;
    return {
      phases: r.phases === null ? [] : campaignPhasesSchema.parse(r.phases),
      index: r.phase_index,
      soakSince: r.phase_soak_since,
      definition: r.definition,
    };
  }

  /**
   * Gives phase `index` its devices: a canary's named ones, or as many more as its percentage asks (spread by a
   * hash of the device id, so a percentage is not one corner of the fleet), until phases 0..index hold `quota`.
   */
  async open(campaignId: string, index: number, phase: CampaignPhase, quota: number): Promise<void> {
    if (phase.devices) {
      await this.pool.query(
        `UPDATE campaign_target SET phase = $2 WHERE campaign_id = $1 AND phase IS NULL AND device_id = ANY($3)`,
        [campaignId, index, phase.devices],
      );
      return;
    }
    await this.pool.query(
      `UPDATE campaign_target SET phase = $2 WHERE id IN (
         SELECT id FROM campaign_target WHERE campaign_id = $1 AND phase IS NULL
          ORDER BY md5(device_id), device_id
          LIMIT greatest($3::int - (SELECT count(*) FROM campaign_target WHERE campaign_id = $1 AND phase IS NOT NULL), 0))`,
      [campaignId, index, quota],
    );
  }

  async sizes(campaignId: string): Promise<{ total: number; assigned: number }> {
    const { rows } = await this.pool.query<{ total: number; assigned: number }>(
      `SELECT count(*)::int AS total, count(phase)::int AS assigned FROM campaign_target WHERE campaign_id = $1`,
      [campaignId],
    );
    return rows[0]!;
  }

  /** What the gate of phases 0..index is judged on: their devices' upgrades, as release health counts them. */
  async judged(
    campaignId: string,
    index: number,
    version: string,
  ): Promise<{ counts: PhaseCounts; signals: VersionSignals }> {
    const { rows } = await this.pool.query<{
      open: number;
      started: number;
      verified: number;
      effect_mismatch: number;
      failed: number;
      regressions: number;
    }>(
      `SELECT count(*) FILTER (WHERE t.state IN ('pending', 'waiting_for_device', 'in_progress'))::int AS open,
              count(*) FILTER (WHERE t.attempts > 0)::int AS started,
              count(*) FILTER (WHERE t.state IN ('verified', 'acknowledged'))::int AS verified,
              count(*) FILTER (WHERE t.state = 'failed' AND c.verdict = 'effect_mismatch')::int AS effect_mismatch,
              count(*) FILTER (WHERE t.state = 'failed' AND c.verdict IS DISTINCT FROM 'effect_mismatch')::int
                AS failed,
              (SELECT count(DISTINCT g.call_id) FROM upgrade_regression g JOIN campaign_target r ON r.call_id = g.call_id
                WHERE r.campaign_id = $1 AND r.phase <= $2)::int AS regressions
         FROM campaign_target t LEFT JOIN call c ON c.id = t.call_id
        WHERE t.campaign_id = $1 AND t.phase <= $2`,
      [campaignId, index],
    );
    const r = rows[0]!;
    return {
      counts: { open: r.open, started: r.started, failed: r.failed },
      signals: {
        version,
        devices: r.verified + r.effect_mismatch,
        deviceHours: 0,
        upgrades: { verified: r.verified, effectMismatch: r.effect_mismatch, failed: r.failed },
        regressions: r.regressions,
        reconnects: 0,
        offlineHours: 0,
        calls: { total: 0, deviceError: 0, noResponse: 0 },
      },
    };
  }

  async startSoak(campaignId: string, index: number): Promise<void> {
    await this.pool.query(
      `UPDATE campaign SET phase_soak_since = now() WHERE id = $1 AND phase_index = $2 AND phase_soak_since IS NULL`,
      [campaignId, index],
    );
  }

  /** The gate held: the next phase begins (no soak yet). */
  async pass(campaignId: string, index: number, entry: PhaseLogEntry): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE campaign SET phase_index = $2 + 1, phase_soak_since = NULL, phase_log = phase_log || $3::jsonb,
              updated_at = now()
        WHERE id = $1 AND phase_index = $2 AND state = 'running'`,
      [campaignId, index, JSON.stringify([entry])],
    );
    return rowCount === 1;
  }

  /** The gate broke: the campaign pauses, saying why; a person decides whether it goes on. */
  async fail(campaignId: string, index: number, entry: PhaseLogEntry): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE campaign SET state = 'paused', state_reason = $3, phase_log = phase_log || $4::jsonb, updated_at = now()
        WHERE id = $1 AND phase_index = $2 AND state = 'running'`,
      [campaignId, index, entry.detail, JSON.stringify([entry])],
    );
    return rowCount === 1;
  }

  /** Who approved the campaign and who made it: the people a failed gate is told of. */
  async people(
    campaignId: string,
  ): Promise<{ operatorId: string; email: string; as: 'approver' | 'creator' }[]> {
    const { rows } = await this.pool.query<{ operatorId: string; email: string; as: 'approver' | 'creator' }>(
      `SELECT o.id AS "operatorId", o.email, 'approver' AS "as" FROM approval a JOIN operator o ON o.id = a.decided_by
        WHERE a.campaign_id = $1 AND a.state = 'approved'
       UNION ALL
       SELECT o.id, o.email, 'creator' FROM campaign k JOIN operator o ON o.id = k.created_by WHERE k.id = $1`,
      [campaignId],
    );
    return rows;
  }

  /** Campaign calls made across the platform in the last minute (the per-minute dispatch cap counts these). */
  async dispatchedLastMinute(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM call WHERE campaign_id IS NOT NULL AND created_at > now() - interval '1 minute'`,
    );
    return rows[0]!.n;
  }
}
