import { Inject, Injectable } from '@nestjs/common';
import { callStateRepository, createDatabase, type Database, type Pool } from '@fleet/db';
import type { EvidenceStage } from '@fleet/domain';
import { SqlParams } from '../http/sql';
import { PG_POOL } from '../infra/tokens';
import type { CallListQuery } from './calls.schemas';

export interface CallSummaryRow {
  id: string;
  deviceId: string;
  tool: string;
  origin: string;
  operatorId: string | null;
  campaignId: string | null;
  state: string;
  verdict: string | null;
  createdAt: Date;
  sealedAt: Date | null;
}

export interface CallRow extends CallSummaryRow {
  arguments: unknown;
  reason: string | null;
  apiKeyId: string | null;
  voiceTurnId: string | null;
  agentId: string | null;
  parentCallId: string | null;
  catalogVersionId: string | null;
  verdictReason: string | null;
  jsonrpcId: number | null;
  connectionId: string | null;
  deadlineAt: Date;
  replyTimeoutMs: number;
  effectDeadlineAt: Date | null;
  result: unknown;
  cancelledBy: string | null;
  cancelReason: string | null;
  sentAt: Date | null;
  approval: unknown;
  prerequisites: unknown;
}

export interface EvidenceRow {
  id: string;
  stage: EvidenceStage;
  seq: string;
  payload: unknown;
  prevHash: string;
  hash: string;
  createdAt: Date;
}

const SUMMARY = `c.id, c.device_id AS "deviceId", c.tool, c.origin, c.operator_id AS "operatorId",
  c.campaign_id AS "campaignId", c.state, c.verdict, c.created_at AS "createdAt", c.sealed_at AS "sealedAt"`;

/** Reads calls and their evidence; the only write is an operator's cancel, guarded by the call's state. */
@Injectable()
export class CallsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {
    this.db = createDatabase(pool);
  }

  async deviceStatus(deviceId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ status: string }>('SELECT status FROM device WHERE id = $1', [
      deviceId,
    ]);
    return rows[0]?.status;
  }

  async get(id: string): Promise<CallRow | undefined> {
    const { rows } = await this.pool.query<CallRow>(
      `SELECT ${SUMMARY}, c.arguments, c.reason, c.api_key_id AS "apiKeyId", c.voice_turn_id AS "voiceTurnId",
              c.agent_id AS "agentId", c.parent_call_id AS "parentCallId", c.catalog_version_id AS "catalogVersionId",
              c.verdict_reason AS "verdictReason", c.jsonrpc_id AS "jsonrpcId", c.connection_id AS "connectionId",
              c.deadline_at AS "deadlineAt", c.reply_timeout_ms AS "replyTimeoutMs",
              c.effect_deadline_at AS "effectDeadlineAt", c.result, c.cancelled_by AS "cancelledBy",
              c.cancel_reason AS "cancelReason", c.sent_at AS "sentAt",
              (SELECT json_build_object('id', a.id, 'state', a.state, 'requestedBy', a.requested_by,
                        'decidedBy', a.decided_by, 'decidedAt', a.decided_at, 'reason', a.reason,
                        'expiresAt', a.expires_at)
                 FROM approval a WHERE a.call_id = c.id) AS approval,
              coalesce((SELECT json_agg(json_build_object('id', p.id, 'tool', p.tool, 'state', p.state,
                                 'verdict', p.verdict) ORDER BY p.created_at)
                          FROM call p WHERE p.parent_call_id = c.id), '[]') AS prerequisites
         FROM call c WHERE c.id = $1`,
      [id],
    );
    return rows[0];
  }

  /** The call's five rows (its seal link is what the call's verdict says: the integrity check compares them). */
  async evidence(callId: string): Promise<EvidenceRow[]> {
    const { rows } = await this.pool.query<EvidenceRow>(
      `SELECT id::text, stage, seq::text, payload, prev_hash AS "prevHash", hash, created_at AS "createdAt"
         FROM evidence e WHERE call_id = $1 AND e.stage <> 'seal' ORDER BY e.seq`,
      [callId],
    );
    return rows;
  }

  async list(q: CallListQuery, before?: { createdAt: string; id: string }): Promise<CallSummaryRow[]> {
    const p = new SqlParams();
    const where: string[] = [];
    if (q.deviceId) where.push(`c.device_id = ${p.add(q.deviceId)}`);
    if (q.verdict) where.push(`c.verdict = ${p.add(q.verdict)}::"Verdict"`);
    if (q.tool) where.push(`c.tool = ${p.add(q.tool)}`);
    if (q.origin) where.push(`c.origin = ${p.add(q.origin)}::"CallOrigin"`);
    if (q.state) where.push(`c.state = ${p.add(q.state)}::"CallState"`);
    if (q.operatorId) where.push(`c.operator_id = ${p.add(q.operatorId)}`);
    if (q.campaignId) where.push(`c.campaign_id = ${p.add(q.campaignId)}`);
    if (q.from) where.push(`c.created_at >= ${p.add(q.from)}`);
    if (q.to) where.push(`c.created_at < ${p.add(q.to)}`);
    if (before)
      where.push(
        `(c.created_at, c.id) < (${p.add(before.createdAt)}::timestamptz, ${p.add(before.id)}::uuid)`,
      );
    const { rows } = await this.pool.query<CallSummaryRow>(
      `SELECT ${SUMMARY} FROM call c ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY c.created_at DESC, c.id DESC LIMIT ${p.add(q.limit + 1)}`,
      p.values,
    );
    return rows;
  }

  /**
   * Cancels a call that has not been sent: one statement, so it cannot race the orchestrator's move to
   * `sending` (whichever commits first wins; the other sees the row changed). The orchestrator then seals it.
   */
  cancel(id: string, operatorId: string, reason: string): Promise<{ deviceId: string } | undefined> {
    return callStateRepository.cancel(this.db, id, operatorId, reason);
  }
}
