import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, sql, type Database, type Pool, type Row } from '@fleet/db';
import { EVIDENCE_STAGES } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';

export interface Period {
  from: Date;
  to: Date;
  /** Only the calls (and approvals) of devices of this dialect. */
  dialect?: Row<'device'>['dialect'];
}

/** The dialect filter on a call row `c` (every dialect when none is given). */
const callDialect = (dialect: Period['dialect']) =>
  sql<boolean>`(${dialect ?? null}::"Dialect" IS NULL OR EXISTS (SELECT 1 FROM device dd WHERE dd.id = c.device_id AND dd.dialect = ${dialect ?? null}::"Dialect"))`;

/** Calls whose effect was not seen: sent, and sealed with anything but `verified`. */
const UNVERIFIED_VERDICTS: Row<'call'>['verdict'][] = [
  'acknowledged',
  'effect_mismatch',
  'device_error',
  'no_response',
];
export const UNVERIFIED = sql<boolean>`c.verdict IN (${sql.join(UNVERIFIED_VERDICTS)})`;

type CallTable = Row<'call'>;
type ApprovalTable = Row<'approval'>;
type CampaignTable = Row<'campaign'>;

export interface ApprovalLine {
  id: ApprovalTable['id'];
  callId: ApprovalTable['call_id'];
  campaignId: ApprovalTable['campaign_id'];
  deviceId: ApprovalTable['device_id'];
  tool: ApprovalTable['tool'];
  state: ApprovalTable['state'];
  requestedBy: Row<'operator'>['email'];
  requestedAt: ApprovalTable['created_at'];
  decidedBy: Row<'operator'>['email'] | null;
  decidedAt: ApprovalTable['decided_at'];
  reason: ApprovalTable['reason'];
  expiresAt: ApprovalTable['expires_at'];
}

export interface CampaignLine {
  id: CampaignTable['id'];
  name: CampaignTable['name'];
  state: CampaignTable['state'];
  createdBy: Row<'operator'>['email'];
  createdAt: CampaignTable['created_at'];
  startedAt: CampaignTable['started_at'];
  finishedAt: CampaignTable['finished_at'];
  stateReason: CampaignTable['state_reason'];
  action: CampaignTable['action'];
  targets: Partial<Record<Row<'campaign_target'>['state'], number>>;
}

export interface UnverifiedLine {
  id: CallTable['id'];
  deviceId: CallTable['device_id'];
  dialect: Row<'device'>['dialect'];
  tool: CallTable['tool'];
  origin: CallTable['origin'];
  verdict: NonNullable<CallTable['verdict']>;
  verdictReason: CallTable['verdict_reason'];
  createdAt: CallTable['created_at'];
  total: number;
}

export interface IncompleteLine {
  id: CallTable['id'];
  deviceId: CallTable['device_id'];
  tool: CallTable['tool'];
  verdict: NonNullable<CallTable['verdict']>;
  missing: Row<'evidence'>['stage'][];
  total: number;
}

export interface LedgerRow {
  callId: CallTable['id'];
  createdAt: CallTable['created_at'];
  sealedAt: CallTable['sealed_at'];
  deviceId: CallTable['device_id'];
  dialect: Row<'device'>['dialect'];
  tool: CallTable['tool'];
  origin: CallTable['origin'];
  operatorEmail: Row<'operator'>['email'] | null;
  apiKeyId: CallTable['api_key_id'];
  campaignId: CallTable['campaign_id'];
  voiceTurnId: CallTable['voice_turn_id'];
  reason: CallTable['reason'];
  state: CallTable['state'];
  verdict: CallTable['verdict'];
  verdictReason: CallTable['verdict_reason'];
  approvalState: ApprovalTable['state'] | null;
  approvedBy: Row<'operator'>['email'] | null;
  approvalDecidedAt: ApprovalTable['decided_at'];
  stages: Row<'evidence'>['stage'][] | null;
  sealHash: Row<'evidence'>['hash'] | null;
}

/**
 * The audit report's queries, all bounded by the period on call.created_at (indexed). Aggregates, window counts
 * and json objects read clearer as SQL than as builder chains: each statement is one typed `sql` template, its
 * row type made of the generated tables' columns.
 */
@Injectable()
export class AuditReportRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async callCounts(p: Period) {
    const { rows } = await sql<{
      total: number;
      byVerdict: Record<string, number> | null;
      byOrigin: Record<string, number> | null;
      byTool: { tool: string; calls: number; verified: number }[] | null;
      byOperator: { operatorId: string; email: string; calls: number }[] | null;
      byDialect: Record<string, number> | null;
    }>`WITH c AS (SELECT c.*, d.dialect FROM call c JOIN device d ON d.id = c.device_id
                   WHERE c.created_at >= ${p.from} AND c.created_at < ${p.to} AND ${callDialect(p.dialect)})
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
                AS "byDialect"`.execute(this.db);
    return rows[0]!;
  }

  async approvals(p: Period, limit: number): Promise<ApprovalLine[]> {
    const { rows } =
      await sql<ApprovalLine>`SELECT a.id, a.call_id AS "callId", a.campaign_id AS "campaignId", a.device_id AS "deviceId", a.tool,
              a.state, r.email AS "requestedBy", a.created_at AS "requestedAt", d.email AS "decidedBy",
              a.decided_at AS "decidedAt", a.reason, a.expires_at AS "expiresAt"
         FROM approval a JOIN operator r ON r.id = a.requested_by LEFT JOIN operator d ON d.id = a.decided_by
        WHERE a.created_at >= ${p.from} AND a.created_at < ${p.to}
          AND (${p.dialect ?? null}::"Dialect" IS NULL OR EXISTS (SELECT 1 FROM device dd WHERE dd.id = a.device_id AND dd.dialect = ${p.dialect ?? null}::"Dialect"))
        ORDER BY a.created_at, a.id LIMIT ${limit}`.execute(this.db);
    return rows;
  }

  /** Campaigns that existed and were not finished before the period began. */
  async campaigns(p: Period, limit: number): Promise<CampaignLine[]> {
    const { rows } =
      await sql<CampaignLine>`SELECT k.id, k.name, k.state, o.email AS "createdBy", k.created_at AS "createdAt", k.started_at AS "startedAt",
              k.finished_at AS "finishedAt", k.state_reason AS "stateReason", k.action,
              coalesce((SELECT json_object_agg(state, n) FROM (SELECT state, count(*)::int AS n FROM campaign_target t
                                                                 WHERE t.campaign_id = k.id GROUP BY state) s), '{}')
                AS targets
         FROM campaign k JOIN operator o ON o.id = k.created_by
        WHERE k.created_at < ${p.to} AND (k.finished_at IS NULL OR k.finished_at >= ${p.from})
        ORDER BY k.created_at, k.id LIMIT ${limit}`.execute(this.db);
    return rows;
  }

  async unverified(p: Period, limit: number): Promise<UnverifiedLine[]> {
    const { rows } =
      await sql<UnverifiedLine>`SELECT c.id, c.device_id AS "deviceId", d.dialect, c.tool, c.origin, c.verdict,
              c.verdict_reason AS "verdictReason", c.created_at AS "createdAt", count(*) OVER ()::int AS total
         FROM call c JOIN device d ON d.id = c.device_id
        WHERE c.created_at >= ${p.from} AND c.created_at < ${p.to} AND ${UNVERIFIED} AND ${callDialect(p.dialect)}
        ORDER BY c.created_at, c.id LIMIT ${limit}`.execute(this.db);
    return rows;
  }

  /** Sealed calls that lack any of their five rows (every finished call must have all five). */
  async incomplete(p: Period, limit: number): Promise<IncompleteLine[]> {
    const { rows } = await sql<IncompleteLine>`SELECT c.id, c.device_id AS "deviceId", c.tool, c.verdict,
              array(SELECT s FROM unnest(${EVIDENCE_STAGES}::text[]) s
                     WHERE NOT EXISTS (SELECT 1 FROM evidence e WHERE e.call_id = c.id AND e.stage::text = s)) AS missing,
              count(*) OVER ()::int AS total
         FROM call c
        WHERE c.created_at >= ${p.from} AND c.created_at < ${p.to} AND c.verdict IS NOT NULL
          AND (SELECT count(*) FROM evidence e WHERE e.call_id = c.id AND e.stage <> 'seal') < 5
          AND ${callDialect(p.dialect)}
        ORDER BY c.created_at, c.id LIMIT ${limit}`.execute(this.db);
    return rows;
  }

  async sealedCalls(p: Period): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM call c
        WHERE c.created_at >= ${p.from} AND c.created_at < ${p.to} AND c.verdict IS NOT NULL AND ${callDialect(p.dialect)}`.execute(
      this.db,
    );
    return rows[0]!.n;
  }

  /** One page of the call ledger, in (created_at, id) order: the CSV streams these a page at a time. */
  async ledger(p: Period, limit: number, after?: { createdAt: Date; id: string }): Promise<LedgerRow[]> {
    const { rows } =
      await sql<LedgerRow>`SELECT c.id AS "callId", c.created_at AS "createdAt", c.sealed_at AS "sealedAt", c.device_id AS "deviceId",
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
        WHERE c.created_at >= ${p.from} AND c.created_at < ${p.to}
          AND (${after?.createdAt ?? null}::timestamptz IS NULL OR (c.created_at, c.id) > (${after?.createdAt ?? null}::timestamptz, ${after?.id ?? null}::uuid))
          AND (${p.dialect ?? null}::"Dialect" IS NULL OR dv.dialect = ${p.dialect ?? null}::"Dialect")
        ORDER BY c.created_at, c.id LIMIT ${limit}`.execute(this.db);
    return rows;
  }
}
