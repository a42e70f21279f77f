import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import type { CampaignState, PhaseLogEntry } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';
import type { Tx } from '../infra/transactions';
import type { CampaignEdit } from './campaign-edit.schemas';

/** A campaign of a firmware release, as the release page lists it, with what it undoes and what undoes it. */
export interface ReleaseCampaignRow {
  id: string;
  name: string;
  state: CampaignState;
  rollbackOf: string | null;
  rolledBackBy: string | null;
  createdAt: Date;
}

const EDITABLE: Record<keyof CampaignEdit, string> = {
  name: 'name',
  selector: 'selector',
  action: 'action',
  rollout: 'rollout',
  abortRule: 'abort_rule',
  windows: 'windows',
  deviceTimeoutS: 'device_timeout_s',
  retries: 'retries',
  skipInSession: 'skip_in_session',
  doneWhen: 'done_when',
  phases: 'phases',
};
const JSON_FIELDS = new Set(['selector', 'action', 'rollout', 'abortRule', 'windows', 'phases']);

/** Edits of drafts, a person continuing past a failed gate, and rollbacks (DESIGN §3). */
@Injectable()
export class CampaignDefinitionsRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** Changes a draft (only a draft: a started campaign's definition is sealed). False when it is no draft. */
  async editDraft(tx: Tx, id: string, edit: CampaignEdit): Promise<boolean> {
    const sets: string[] = [];
    const values: unknown[] = [id];
    for (const [field, value] of Object.entries(edit)) {
      const column = EDITABLE[field as keyof CampaignEdit];
      if (!column || value === undefined) continue;
      values.push(JSON_FIELDS.has(field) && value !== null ? JSON.stringify(value) : value);
      sets.push(`"${column}" = $${values.length}${JSON_FIELDS.has(field) ? '::jsonb' : ''}`);
    }
    const { rowCount } = await tx.query(
      `UPDATE campaign SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 AND state = 'draft'`,
      values,
    );
    return rowCount === 1;
  }

  /**
   * A person lets a campaign paused by a failed gate go on: the phase counts as passed by that person, the
   * campaign runs again. False when it is not paused at a failed gate.
   */
  async continuePastGate(tx: Tx, id: string, entry: Omit<PhaseLogEntry, 'phase' | 'name'>): Promise<boolean> {
    const { rowCount } = await tx.query(
      `UPDATE campaign
          SET state = 'running', state_reason = NULL, phase_index = phase_index + 1, phase_soak_since = NULL,
              phase_log = phase_log || jsonb_build_array(
                $2::jsonb || jsonb_build_object('phase', phase_index, 'name', phases -> phase_index ->> 'name')),
              updated_at = now()
        WHERE id = $1 AND state = 'paused' AND phases IS NOT NULL
          AND phase_log -> -1 ->> 'outcome' = 'failed' AND (phase_log -> -1 ->> 'phase')::int = phase_index`,
      [id, JSON.stringify(entry)],
    );
    return rowCount === 1;
  }

  /** The devices a campaign started (those a rollback takes back). */
  async startedDevices(tx: Tx, id: string): Promise<string[]> {
    const { rows } = await tx.query<{ device_id: string }>(
      `SELECT device_id FROM campaign_target WHERE campaign_id = $1 AND attempts > 0 ORDER BY device_id`,
      [id],
    );
    return rows.map((r) => r.device_id);
  }

  /**
   * The image its devices ran before a firmware campaign: of the same project, the version most of them last
   * checked in with before it started.
   */
  async previousFirmware(tx: Tx, id: string, firmwareId: string): Promise<string | undefined> {
    const { rows } = await tx.query<{ id: string }>(
      `WITH before AS (
         SELECT b.firmware_version AS version FROM campaign k
           JOIN campaign_target t ON t.campaign_id = k.id AND t.attempts > 0
           JOIN LATERAL (SELECT firmware_version FROM boot_report r
                          WHERE r.device_id = t.device_id AND r.received_at < k.started_at
                            AND r.firmware_version IS NOT NULL
                          ORDER BY r.received_at DESC LIMIT 1) b ON true
          WHERE k.id = $1
       )
       SELECT f.id FROM firmware f JOIN firmware cur ON cur.id = $2
        WHERE f.project_name = cur.project_name AND f.version <> cur.version
          AND f.version = (SELECT version FROM before GROUP BY version ORDER BY count(*) DESC, version LIMIT 1)
        ORDER BY f.created_at DESC LIMIT 1`,
      [id, firmwareId],
    );
    return rows[0]?.id;
  }

  /** A release's campaigns, newest first, with the rollback campaign of each (if one was made). */
  async ofFirmware(firmwareId: string): Promise<ReleaseCampaignRow[]> {
    const { rows } = await this.pool.query<ReleaseCampaignRow>(
      `SELECT k.id, k.name, k.state, k.rollback_of AS "rollbackOf",
              (SELECT r.id FROM campaign r WHERE r.rollback_of = k.id ORDER BY r.created_at DESC LIMIT 1)
                AS "rolledBackBy",
              k.created_at AS "createdAt"
         FROM campaign k
        WHERE k.action ->> 'kind' = 'firmware' AND k.action ->> 'firmwareId' = $1
        ORDER BY k.created_at DESC LIMIT 100`,
      [firmwareId],
    );
    return rows;
  }
}
