import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import { SqlParams } from '../http/sql';
import { PG_POOL } from '../infra/tokens';
import type { Tx } from '../infra/transactions';

export interface DecidedApproval {
  id: string;
  callId: string | null;
  campaignId: string | null;
  deviceId: string | null;
}

export interface ApprovalFacts {
  id: string;
  state: 'pending' | 'approved' | 'rejected' | 'expired';
  requestedBy: string;
  lapsed: boolean;
  callId: string | null;
  campaignId: string | null;
  /** The call was cancelled or sealed meanwhile: nothing is left to approve. */
  callSettled: boolean;
  /** DESIGN §4: the call's delivery deadline passed while it waited; approving it is refused. */
  callPastDeadline: boolean;
  /** A call's approval the orchestrator's pre-flight has not passed yet: nobody is asked before it has. */
  awaitingPreflight: boolean;
}

export interface ApprovalRow {
  id: string;
  state: string;
  effectiveState: string;
  callId: string | null;
  campaignId: string | null;
  deviceId: string | null;
  tool: string;
  arguments: unknown;
  argumentsHash: string;
  requestedBy: { id: string; email: string; name: string };
  decidedBy: { id: string; email: string; name: string } | null;
  decidedAt: Date | null;
  reason: string | null;
  expiresAt: Date;
  createdAt: Date;
  /** What the orchestrator's pre-flight found before a person was asked (DESIGN §4). */
  preflight: unknown;
  catalogVersionId: string | null;
  call: unknown;
  campaign: unknown;
}

const VIEW = `SELECT a.id, a.state,
    CASE WHEN a.state = 'pending' AND a.expires_at <= now() THEN 'expired' ELSE a.state::text END AS "effectiveState",
    a.call_id AS "callId", a.campaign_id AS "campaignId", a.device_id AS "deviceId", a.tool, a.arguments,
    a.arguments_hash AS "argumentsHash",
    json_build_object('id', r.id, 'email', r.email, 'name', r.name) AS "requestedBy",
    CASE WHEN d.id IS NULL THEN NULL ELSE json_build_object('id', d.id, 'email', d.email, 'name', d.name) END
      AS "decidedBy",
    a.decided_at AS "decidedAt", a.reason, a.expires_at AS "expiresAt", a.created_at AS "createdAt",
    a.preflight, a.catalog_version_id AS "catalogVersionId",
    CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id, 'deviceId', c.device_id, 'tool', c.tool,
      'reason', c.reason, 'state', c.state, 'verdict', c.verdict) END AS call,
    CASE WHEN k.id IS NULL THEN NULL ELSE json_build_object('id', k.id, 'name', k.name, 'state', k.state,
      'selector', k.selector) END AS campaign
  FROM approval a
  JOIN operator r ON r.id = a.requested_by
  LEFT JOIN operator d ON d.id = a.decided_by
  LEFT JOIN call c ON c.id = a.call_id
  LEFT JOIN campaign k ON k.id = a.campaign_id`;

/** What still waits: pending, in time, and its call or campaign still waiting for it. */
const WAITING = `a.state = 'pending' AND a.expires_at > now()
  AND (a.call_id IS NULL OR (c.verdict IS NULL AND c.cancelled_by IS NULL AND c.deadline_at > now()
                              AND a.preflight IS NOT NULL))
  AND (a.campaign_id IS NULL OR k.state = 'awaiting_approval')`;

/** Approval rows: the four-eyes decision is one guarded UPDATE, so two approvers cannot both win. */
@Injectable()
export class ApprovalsRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /**
   * Decides a pending approval if it is in time, still wanted, and the decider is not the person who asked
   * (by operator: two keys of one person are one person).
   */
  async decide(
    tx: Tx | undefined,
    id: string,
    operatorId: string,
    state: 'approved' | 'rejected',
    reason: string | undefined,
  ): Promise<DecidedApproval | undefined> {
    const { rows } = await (tx ?? this.pool).query<DecidedApproval>(
      `UPDATE approval a SET state = $3::"ApprovalState", decided_by = $2, decided_at = now(), reason = $4
        WHERE a.id = $1 AND a.state = 'pending' AND a.expires_at > now() AND a.requested_by <> $2
          AND (a.call_id IS NULL OR a.preflight IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM call c WHERE c.id = a.call_id
                           AND (c.verdict IS NOT NULL OR c.cancelled_by IS NOT NULL OR c.deadline_at <= now()))
        RETURNING a.id, a.call_id AS "callId", a.campaign_id AS "campaignId", a.device_id AS "deviceId"`,
      [id, operatorId, state, reason ?? null],
    );
    return rows[0];
  }

  async facts(id: string, tx?: Tx): Promise<ApprovalFacts | undefined> {
    const { rows } = await (tx ?? this.pool).query<ApprovalFacts>(
      `SELECT a.id, a.state, a.requested_by AS "requestedBy", a.expires_at <= now() AS lapsed,
              a.call_id AS "callId", a.campaign_id AS "campaignId",
              coalesce(c.verdict IS NOT NULL OR c.cancelled_by IS NOT NULL, false) AS "callSettled",
              coalesce(c.deadline_at <= now(), false) AS "callPastDeadline",
              (a.call_id IS NOT NULL AND a.preflight IS NULL) AS "awaitingPreflight"
         FROM approval a LEFT JOIN call c ON c.id = a.call_id WHERE a.id = $1`,
      [id],
    );
    return rows[0];
  }

  async idForCampaign(campaignId: string, tx?: Tx): Promise<string | undefined> {
    const { rows } = await (tx ?? this.pool).query<{ id: string }>(
      'SELECT id FROM approval WHERE campaign_id = $1',
      [campaignId],
    );
    return rows[0]?.id;
  }

  /** A campaign's approval; starting again after it lapsed opens it anew (one row per campaign). */
  async openForCampaign(
    tx: Tx,
    a: {
      campaignId: string;
      tool: string;
      arguments: unknown;
      argumentsHash: string;
      requestedBy: string;
      ttlS: number;
    },
  ): Promise<string> {
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO approval (id, campaign_id, tool, arguments, arguments_hash, requested_by, expires_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, now() + make_interval(secs => $6))
       ON CONFLICT (campaign_id) DO UPDATE
         SET state = 'pending', decided_by = NULL, decided_at = NULL, reason = NULL, created_at = now(),
             expires_at = EXCLUDED.expires_at, arguments = EXCLUDED.arguments,
             arguments_hash = EXCLUDED.arguments_hash
       RETURNING id`,
      [a.campaignId, a.tool, JSON.stringify(a.arguments), a.argumentsHash, a.requestedBy, a.ttlS],
    );
    return rows[0]!.id;
  }

  async get(id: string): Promise<ApprovalRow | undefined> {
    const { rows } = await this.pool.query<ApprovalRow>(`${VIEW} WHERE a.id = $1`, [id]);
    return rows[0];
  }

  async list(
    state: string,
    limit: number,
    before?: { createdAt: string; id: string },
  ): Promise<ApprovalRow[]> {
    const p = new SqlParams();
    const where = [
      state === 'pending'
        ? WAITING
        : state === 'expired'
          ? `(a.state = 'expired' OR (a.state = 'pending' AND a.expires_at <= now()))`
          : `a.state = ${p.add(state)}::"ApprovalState"`,
    ];
    if (before)
      where.push(
        `(a.created_at, a.id) < (${p.add(before.createdAt)}::timestamptz, ${p.add(before.id)}::uuid)`,
      );
    const { rows } = await this.pool.query<ApprovalRow>(
      `${VIEW} WHERE ${where.join(' AND ')} ORDER BY a.created_at DESC, a.id DESC LIMIT ${p.add(limit + 1)}`,
      p.values,
    );
    return rows;
  }
}
