import { Inject, Injectable } from '@nestjs/common';
import { callStateRepository, createDatabase, sql, type Database, type Pool, type Row } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';
import type { CallListQuery } from './calls.schemas';

type CallTable = Row<'call'>;

export interface CallSummaryRow {
  id: CallTable['id'];
  deviceId: CallTable['device_id'];
  tool: CallTable['tool'];
  origin: CallTable['origin'];
  operatorId: CallTable['operator_id'];
  campaignId: CallTable['campaign_id'];
  state: CallTable['state'];
  verdict: CallTable['verdict'];
  createdAt: CallTable['created_at'];
  sealedAt: CallTable['sealed_at'];
}

/** The call's approval, as its json sub-select returns it: timestamps arrive as ISO strings. */
interface ApprovalJson {
  id: Row<'approval'>['id'];
  state: Row<'approval'>['state'];
  requestedBy: Row<'approval'>['requested_by'];
  decidedBy: Row<'approval'>['decided_by'];
  decidedAt: string | null;
  reason: Row<'approval'>['reason'];
  expiresAt: string;
}

type PrerequisiteJson = Pick<CallTable, 'id' | 'tool' | 'state' | 'verdict'>;

/** Where a user-only call stands after pre-flight: sealed (refused), or its approval opened, or neither yet. */
export interface PreflightStanding {
  state: CallTable['state'];
  verdict: CallTable['verdict'];
  verdictReason: CallTable['verdict_reason'];
  approvalId: string | null;
}

export interface CallRow extends CallSummaryRow {
  arguments: CallTable['arguments'];
  reason: CallTable['reason'];
  apiKeyId: CallTable['api_key_id'];
  voiceTurnId: CallTable['voice_turn_id'];
  agentId: CallTable['agent_id'];
  parentCallId: CallTable['parent_call_id'];
  catalogVersionId: CallTable['catalog_version_id'];
  verdictReason: CallTable['verdict_reason'];
  jsonrpcId: CallTable['jsonrpc_id'];
  connectionId: CallTable['connection_id'];
  deadlineAt: CallTable['deadline_at'];
  replyTimeoutMs: CallTable['reply_timeout_ms'];
  effectDeadlineAt: CallTable['effect_deadline_at'];
  result: CallTable['result'];
  cancelledBy: CallTable['cancelled_by'];
  cancelReason: CallTable['cancel_reason'];
  sentAt: CallTable['sent_at'];
  approval: ApprovalJson | null;
  prerequisites: PrerequisiteJson[];
}

export interface EvidenceRow {
  id: string;
  /** Every stage but the seal: the seal link is read from the call's verdict. */
  stage: Exclude<Row<'evidence'>['stage'], 'seal'>;
  seq: string;
  payload: Row<'evidence'>['payload'];
  prevHash: Row<'evidence'>['prev_hash'];
  hash: Row<'evidence'>['hash'];
  createdAt: Row<'evidence'>['created_at'];
}

const SUMMARY = [
  'c.id',
  'c.device_id as deviceId',
  'c.tool',
  'c.origin',
  'c.operator_id as operatorId',
  'c.campaign_id as campaignId',
  'c.state',
  'c.verdict',
  'c.created_at as createdAt',
  'c.sealed_at as sealedAt',
] as const;

/** Reads calls and their evidence; the only write is an operator's cancel, guarded by the call's state. */
@Injectable()
export class CallsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }
  /** One read of a call's seal and its approval (the API waits on it for pre-flight to speak). */
  preflightStanding(id: string): Promise<PreflightStanding | undefined> {
    return this.db
      .selectFrom('call as c')
      .leftJoin('approval as a', 'a.call_id', 'c.id')
      .select(['c.state', 'c.verdict', 'c.verdict_reason as verdictReason', 'a.id as approvalId'])
      .where('c.id', '=', id)
      .executeTakeFirst();
  }

  async get(id: string): Promise<CallRow | undefined> {
    return this.db
      .selectFrom('call as c')
      .select(SUMMARY)
      .select([
        'c.arguments',
        'c.reason',
        'c.api_key_id as apiKeyId',
        'c.voice_turn_id as voiceTurnId',
        'c.agent_id as agentId',
        'c.parent_call_id as parentCallId',
        'c.catalog_version_id as catalogVersionId',
        'c.verdict_reason as verdictReason',
        'c.jsonrpc_id as jsonrpcId',
        'c.connection_id as connectionId',
        'c.deadline_at as deadlineAt',
        'c.reply_timeout_ms as replyTimeoutMs',
        'c.effect_deadline_at as effectDeadlineAt',
        'c.result',
        'c.cancelled_by as cancelledBy',
        'c.cancel_reason as cancelReason',
        'c.sent_at as sentAt',
        // json aggregation has no builder here that keeps the answer's shape; the types say what it holds.
        sql<ApprovalJson | null>`(SELECT json_build_object('id', a.id, 'state', a.state, 'requestedBy', a.requested_by,
                  'decidedBy', a.decided_by, 'decidedAt', a.decided_at, 'reason', a.reason,
                  'expiresAt', a.expires_at)
           FROM approval a WHERE a.call_id = c.id)`.as('approval'),
        sql<
          PrerequisiteJson[]
        >`coalesce((SELECT json_agg(json_build_object('id', p.id, 'tool', p.tool, 'state', p.state,
                           'verdict', p.verdict) ORDER BY p.created_at)
                    FROM call p WHERE p.parent_call_id = c.id), '[]')`.as('prerequisites'),
      ])
      .where('c.id', '=', id)
      .executeTakeFirst();
  }

  /** The call's five rows (its seal link is what the call's verdict says: the integrity check compares them). */
  async evidence(callId: string): Promise<EvidenceRow[]> {
    return this.db
      .selectFrom('evidence as e')
      .select([
        sql<string>`e.id::text`.as('id'),
        'e.stage',
        sql<string>`e.seq::text`.as('seq'),
        'e.payload',
        'e.prev_hash as prevHash',
        'e.hash',
        'e.created_at as createdAt',
      ])
      .where('e.call_id', '=', callId)
      .where('e.stage', '<>', 'seal')
      .orderBy('e.seq')
      .$narrowType<{ stage: EvidenceRow['stage'] }>()
      .execute();
  }

  /** `groupIds`: a group-scoped key's bounds (auth/device-scope.ts), never empty here. */
  async list(
    q: CallListQuery,
    before?: { createdAt: string; id: string },
    groupIds?: readonly string[],
  ): Promise<CallSummaryRow[]> {
    let query = this.db.selectFrom('call as c').select(SUMMARY);
    if (groupIds !== undefined) {
      query = query.where('c.device_id', 'in', (eb) =>
        eb.selectFrom('device_group_member').select('device_id').where('group_id', 'in', groupIds),
      );
    }
    if (q.deviceId) query = query.where('c.device_id', '=', q.deviceId);
    if (q.verdict) query = query.where('c.verdict', '=', q.verdict);
    if (q.tool) query = query.where('c.tool', '=', q.tool);
    if (q.origin) query = query.where('c.origin', '=', q.origin);
    if (q.state) query = query.where('c.state', '=', q.state);
    if (q.operatorId) query = query.where('c.operator_id', '=', q.operatorId);
    if (q.campaignId) query = query.where('c.campaign_id', '=', q.campaignId);
    if (q.from) query = query.where('c.created_at', '>=', sql<Date>`${q.from}::timestamptz`);
    if (q.to) query = query.where('c.created_at', '<', sql<Date>`${q.to}::timestamptz`);
    if (before)
      query = query.where(
        sql<boolean>`(c.created_at, c.id) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`,
      );
    return query
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(q.limit + 1)
      .execute();
  }

  /**
   * Cancels a call that has not been sent: one statement, so it cannot race the orchestrator's move to
   * `sending` (whichever commits first wins; the other sees the row changed). The orchestrator then seals it.
   */
  cancel(id: string, operatorId: string, reason: string): Promise<{ deviceId: string } | undefined> {
    return callStateRepository.cancel(this.db, id, operatorId, reason);
  }
}
