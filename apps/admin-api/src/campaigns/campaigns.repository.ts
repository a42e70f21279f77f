import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import type { CampaignSpec, CampaignState } from '@fleet/domain';
import { SqlParams } from '../http/sql';
import { PG_POOL } from '../infra/tokens';
import type { Tx } from '../infra/transactions';

export interface CampaignRow {
  id: string;
  name: string;
  createdBy: string;
  state: CampaignState;
  selector: CampaignSpec['selector'];
  action: CampaignSpec['action'];
  rollout: unknown;
  abortRule: unknown;
  windows: unknown;
  deviceTimeoutS: number;
  retries: number;
  skipInSession: boolean;
  stateReason: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  updatedAt: Date;
}

const COLUMNS = `id, name, created_by AS "createdBy", state, selector, action, rollout, abort_rule AS "abortRule", windows,
  device_timeout_s AS "deviceTimeoutS", retries, skip_in_session AS "skipInSession", state_reason AS "stateReason",
  created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt", updated_at AS "updatedAt"`;

/** Campaign rows. Every state change is one UPDATE guarded by the states it may leave. */
@Injectable()
export class CampaignsRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** A retry with the same idempotency key finds the first campaign instead of creating another. */
  async create(spec: CampaignSpec, createdBy: string, idempotencyKey?: string): Promise<CampaignRow> {
    const { rows } = await this.pool.query<CampaignRow>(
      `INSERT INTO campaign (id, name, created_by, selector, action, rollout, abort_rule, windows, device_timeout_s,
                             retries, skip_in_session, idempotency_key, updated_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now())
       ON CONFLICT (idempotency_key) DO UPDATE SET idempotency_key = EXCLUDED.idempotency_key
       RETURNING ${COLUMNS}`,
      [
        spec.name,
        createdBy,
        JSON.stringify(spec.selector),
        JSON.stringify(spec.action),
        JSON.stringify(spec.rollout),
        JSON.stringify(spec.abortRule),
        spec.windows ? JSON.stringify(spec.windows) : null,
        spec.deviceTimeoutS,
        spec.retries,
        spec.skipInSession,
        idempotencyKey ?? null,
      ],
    );
    return rows[0]!;
  }

  /** Read alone, or inside a transaction and locked until it ends (`lock`). */
  async get(id: string, tx?: Tx, lock = false): Promise<CampaignRow | undefined> {
    const { rows } = await (tx ?? this.pool).query<CampaignRow>(
      `SELECT ${COLUMNS} FROM campaign WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0];
  }

  async list(
    state: string | undefined,
    limit: number,
    before?: { createdAt: string; id: string },
  ): Promise<CampaignRow[]> {
    const p = new SqlParams();
    const where: string[] = [];
    if (state) where.push(`state = ${p.add(state)}::"CampaignState"`);
    if (before)
      where.push(`(created_at, id) < (${p.add(before.createdAt)}::timestamptz, ${p.add(before.id)}::uuid)`);
    const { rows } = await this.pool.query<CampaignRow>(
      `SELECT ${COLUMNS} FROM campaign ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY created_at DESC, id DESC LIMIT ${p.add(limit + 1)}`,
      p.values,
    );
    return rows;
  }

  async move(
    tx: Tx,
    id: string,
    from: CampaignState[],
    to: CampaignState,
    opts: { reason?: string | null; started?: boolean; finished?: boolean } = {},
  ): Promise<CampaignRow | undefined> {
    const { rows } = await tx.query<CampaignRow>(
      `UPDATE campaign SET state = $3::"CampaignState", state_reason = $4, updated_at = now()
              ${opts.started ? ', started_at = coalesce(started_at, now())' : ''}
              ${opts.finished ? ', finished_at = now()' : ''}
        WHERE id = $1 AND state = ANY ($2::"CampaignState"[]) RETURNING ${COLUMNS}`,
      [id, from, to, opts.reason ?? null],
    );
    return rows[0];
  }

  async firmware(id: string): Promise<{ id: string; version: string; boards: string[] } | undefined> {
    const { rows } = await this.pool.query<{ id: string; version: string; boards: string[] }>(
      'SELECT id, version, boards FROM firmware WHERE id = $1',
      [id],
    );
    return rows[0];
  }
}
