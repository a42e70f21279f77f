import type { SelectQueryBuilder } from 'kysely';
import { sql, type DB } from '../../client/kysely';

/** A call row as the pipeline reads it, named as the code names it; the types come from the generated table. */
export function selectCallRecord<O>(q: SelectQueryBuilder<DB, 'call', O>) {
  return q.select([
    'call.id',
    'call.device_id as deviceId',
    'call.partition',
    'call.tool',
    'call.arguments',
    'call.origin',
    'call.reason',
    'call.operator_id as operatorId',
    'call.api_key_id as apiKeyId',
    'call.voice_turn_id as voiceTurnId',
    'call.campaign_id as campaignId',
    'call.agent_id as agentId',
    'call.parent_call_id as parentCallId',
    'call.state',
    'call.verdict',
    'call.jsonrpc_id as jsonrpcId',
    'call.connection_id as connectionId',
    'call.catalog_version_id as catalogVersionId',
    'call.deadline_at as deadlineAt',
    'call.reply_timeout_ms as replyTimeoutMs',
    'call.approval_ttl_ms as approvalTtlMs',
    'call.effect_deadline_at as effectDeadlineAt',
    'call.request_context as requestContext',
    'call.traceparent',
    'call.cancelled_by as cancelledBy',
    'call.cancel_reason as cancelReason',
    'call.created_at as createdAt',
    'call.sent_at as sentAt',
    // The stages already on disk: a step that resumes writes only the missing ones.
    sql<
      string[]
    >`coalesce((SELECT array_agg(e.stage::text) FROM evidence e WHERE e.call_id = call.id), '{}')`.as(
      'written',
    ),
  ]);
}
