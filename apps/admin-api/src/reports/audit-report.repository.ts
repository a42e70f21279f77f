import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import { EVIDENCE_STAGES } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';

export interface Period {
  from: Date;
  to: Date;
  /** Only the calls (and approvals) of devices of this dialect. */
  dialect?: 'xiaozhi' | 'listenai';
}

/** The dialect filter on a call row `c` (the parameter is null for every dialect). */
const CALL_DIALECT = (param: string) =>
  `(${param}::"Dialect" IS NULL OR EXISTS (SELECT 1 FROM device dd WHERE dd.id = c.device_id AND dd.dialect = ${param}::"Dialect"))`;

/** Calls whose effect was not seen: sent, and sealed with anything but `verified`. */
export const UNVERIFIED = `c.verdict IN ('acknowledged', 'effect_mismatch', 'device_error', 'no_response')`;

export interface ApprovalLine {
  id: string;
  callId: string | null;
  campaignId: string | null;
  deviceId: string | null;
  tool: string;
  state: string;
  requestedBy: string;
  requestedAt: Date;
  decidedBy: string | null;
  decidedAt: Date | null;
  reason: string | null;
  expiresAt: Date;
}

export interface CampaignLine {
  id: string;
  name: string;
  state: string;
  createdBy: string;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  stateReason: string | null;
  action: unknown;
  targets: Record<string, number>;
}

export interface UnverifiedLine {
  id: string;
  deviceId: string;
  dialect: string;
  tool: string;
  origin: string;
  verdict: string;
  verdictReason: string | null;
  createdAt: Date;
  total: number;
}

export interface IncompleteLine {
  id: string;
  deviceId: string;
  tool: string;
  verdict: string;
  missing: string[];
  total: number;
}

export interface LedgerRow {
  callId: string;
  createdAt: Date;
  sealedAt: Date | null;
  deviceId: string;
  dialect: string;
  tool: string;
  origin: string;
  operatorEmail: string | null;
  apiKeyId: string | null;
  campaignId: string | null;
  voiceTurnId: string | null;
  reason: string | null;
  state: string;
  verdict: string | null;
  verdictReason: string | null;
  approvalState: string | null;
  approvedBy: string | null;
  approvalDecidedAt: Date | null;
  stages: string[] | null;
  sealHash: string | null;
}

/** The audit report's queries, all bounded by the period on call.created_at (indexed). */
@Injectable()
export class AuditReportRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async callCounts(p: Period) {
    const { rows } = await this.pool.query<{
      total: number;
      byVerdict: Record<string, number> | null;
      byOrigin: Record<string, number> | null;
      byTool: { tool: string; calls: number; verified: number }[] | null;
      byOperator: { operatorId: string; email: string; calls: number }[] | null;
      byDialect: Record<string, number> | null;
    }>(
      `WITH c AS (SELECT c.*, d.dialect FROM call c JOIN device d ON d.id = c.device_id
                   WHERE c.created_at >= $1 AND c.created_at < $2 AND ${CALL_DIALECT('$3')})
       SELECT (SELECT count(*)::int FROM c) AS total,
              (SELECT json_object_agg(v, n) FROM (SELECT coalesce(verdict::text, 'unsealed') AS v, count(*)::int AS n
                                                    FROM c GROUP BY 1) x) AS "byVerdict",
              (SELECT json_object_agg(origin, n) FROM (SELECT origin, count(*)::int AS n FROM c GROUP BY 1) x) AS "byOrigin",
              (SELECT json_agg(json_build_object('tool', tool, 'calls', n, 'verified', v) ORDER BY n DESC, tool)
                 FROM (SELECT tool, count(*)::int AS n, count(*) FILTER (WHERE verdict = 'verified')::int AS v
                         FROM c GROUP BY tool) x) AS "byTool",
              (SELECT json_agg(json_build_object('operatorId', o.id, 'email', o.email, 'calls', n) ORDER BY n DESC)
                 FROM (SELECT operator_id, count(*)::int AS n FROM c WHERE operator_id IS NOT NULL GROUP BY 1) x
                 JOIN operator o ON o.id = x.operator_id) AS "byOperator",
              (SELECT json_object_agg(dialect, n) FROM (SELECT dialect, count(*)::int AS n FROM c GROUP BY 1) x)
                AS "byDialect"`,
      [p.from, p.to, p.dialect ?? null],
    );
    return rows[0]!;
  }

  async approvals(p: Period, limit: number): Promise<ApprovalLine[]> {
    const { rows } = await this.pool.query<ApprovalLine>(
      `SELECT a.id, a.call_id AS "callId", a.campaign_id AS "campaignId", a.device_id AS "deviceId", a.tool,
              a.state, r.email AS "requestedBy", a.created_at AS "requestedAt", d.email AS "decidedBy",
              a.decided_at AS "decidedAt", a.reason, a.expires_at AS "expiresAt"
         FROM approval a JOIN operator r ON r.id = a.requested_by LEFT JOIN operator d ON d.id = a.decided_by
        WHERE a.created_at >= $1 AND a.created_at < $2
          AND ($4::"Dialect" IS NULL OR EXISTS (SELECT 1 FROM device dd WHERE dd.id = a.device_id AND dd.dialect = $4::"Dialect"))
        ORDER BY a.created_at, a.id LIMIT $3`,
      [p.from, p.to, limit, p.dialect ?? null],
    );
    return rows;
  }

  /** Campaigns that existed and were not finished before the period began. */
  async campaigns(p: Period, limit: number): Promise<CampaignLine[]> {
    const { rows } = await this.pool.query<CampaignLine>(
      `SELECT k.id, k.name, k.state, o.email AS "createdBy", k.created_at AS "createdAt", k.started_at AS "startedAt",
              k.finished_at AS "finishedAt", k.state_reason AS "stateReason", k.action,
              coalesce((SELECT json_object_agg(state, n) FROM (SELECT state, count(*)::int AS n FROM campaign_target t
                                                                 WHERE t.campaign_id = k.id GROUP BY state) s), '{}')
                AS targets
         FROM campaign k JOIN operator o ON o.id = k.created_by
        WHERE k.created_at < $2 AND (k.finished_at IS NULL OR k.finished_at >= $1)
        ORDER BY k.created_at, k.id LIMIT $3`,
      [p.from, p.to, limit],
    );
    return rows;
  }

  async unverified(p: Period, limit: number): Promise<UnverifiedLine[]> {
    const { rows } = await this.pool.query<UnverifiedLine>(
      `SELECT c.id, c.device_id AS "deviceId", d.dialect, c.tool, c.origin, c.verdict,
              c.verdict_reason AS "verdictReason", c.created_at AS "createdAt", count(*) OVER ()::int AS total
         FROM call c JOIN device d ON d.id = c.device_id
        WHERE c.created_at >= $1 AND c.created_at < $2 AND ${UNVERIFIED} AND ${CALL_DIALECT('$4')}
        ORDER BY c.created_at, c.id LIMIT $3`,
      [p.from, p.to, limit, p.dialect ?? null],
    );
    return rows;
  }

  /** Sealed calls that lack any of their five rows (every finished call must have all five). */
  async incomplete(p: Period, limit: number): Promise<IncompleteLine[]> {
    const { rows } = await this.pool.query<IncompleteLine>(
      `SELECT c.id, c.device_id AS "deviceId", c.tool, c.verdict,
              array(SELECT s FROM unnest($4::text[]) s
                     WHERE NOT EXISTS (SELECT 1 FROM evidence e WHERE e.call_id = c.id AND e.stage::text = s)) AS missing,
              count(*) OVER ()::int AS total
         FROM call c
        WHERE c.created_at >= $1 AND c.created_at < $2 AND c.verdict IS NOT NULL
          AND (SELECT count(*) FROM evidence e WHERE e.call_id = c.id AND e.stage <> 'seal') < 5
          AND ${CALL_DIALECT('$5')}
        ORDER BY c.created_at, c.id LIMIT $3`,
      [p.from, p.to, limit, EVIDENCE_STAGES, p.dialect ?? null],
    );
    return rows;
  }

  async sealedCalls(p: Period): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM call c
        WHERE c.created_at >= $1 AND c.created_at < $2 AND c.verdict IS NOT NULL AND ${CALL_DIALECT('$3')}`,
      [p.from, p.to, p.dialect ?? null],
    );
    return rows[0]!.n;
  }

  /** One page of the call ledger, in (created_at, id) order: the CSV streams these a page at a time. */
  async ledger(p: Period, limit: number, after?: { createdAt: Date; id: string }): Promise<LedgerRow[]> {
    const { rows } = await this.pool.query<LedgerRow>(
      `SELECT c.id AS "callId", c.created_at AS "createdAt", c.sealed_at AS "sealedAt", c.device_id AS "deviceId",
              dv.dialect, c.tool, c.origin, o.email AS "operatorEmail", c.api_key_id AS "apiKeyId", c.campaign_id AS "campaignId",
              c.voice_turn_id AS "voiceTurnId", c.reason, c.state, c.verdict, c.verdict_reason AS "verdictReason",
              a.state AS "approvalState", ao.email AS "approvedBy", a.decided_at AS "approvalDecidedAt",
              (SELECT array_agg(e.stage::text) FROM evidence e WHERE e.call_id = c.id AND e.stage <> 'seal') AS stages,
              (SELECT e.hash FROM evidence e WHERE e.call_id = c.id AND e.stage = 'seal') AS "sealHash"
         FROM call c
         JOIN device dv ON dv.id = c.device_id
         LEFT JOIN operator o ON o.id = c.operator_id
         LEFT JOIN approval a ON a.call_id = c.id
         LEFT JOIN operator ao ON ao.id = a.decided_by
        WHERE c.created_at >= $1 AND c.created_at < $2
          AND ($3::timestamptz IS NULL OR (c.created_at, c.id) > ($3::timestamptz, $4::uuid))
          AND ($6::"Dialect" IS NULL OR dv.dialect = $6::"Dialect")
        ORDER BY c.created_at, c.id LIMIT $5`,
      [p.from, p.to, after?.createdAt ?? null, after?.id ?? null, limit, p.dialect ?? null],
    );
    return rows;
  }
}
