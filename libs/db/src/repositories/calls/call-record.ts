import type { EvidenceStage } from '@fleet/domain';
import type { Row } from '../../client/kysely';

type CallRow = Row<'call'>;

/**
 * A call as the pipeline holds it: the generated row's columns under the code's names, with `arguments` and
 * `requestContext` as the call request validated them (zod, at the producer) and the stages on disk as a set.
 */
export interface CallRecord {
  id: CallRow['id'];
  deviceId: CallRow['device_id'];
  partition: CallRow['partition'];
  tool: CallRow['tool'];
  arguments: Record<string, unknown>;
  origin: CallRow['origin'];
  reason: CallRow['reason'];
  operatorId: CallRow['operator_id'];
  apiKeyId: CallRow['api_key_id'];
  voiceTurnId: CallRow['voice_turn_id'];
  campaignId: CallRow['campaign_id'];
  agentId: CallRow['agent_id'];
  parentCallId: CallRow['parent_call_id'];
  state: CallRow['state'];
  verdict: CallRow['verdict'];
  jsonrpcId: CallRow['jsonrpc_id'];
  connectionId: CallRow['connection_id'];
  catalogVersionId: CallRow['catalog_version_id'];
  deadlineAt: CallRow['deadline_at'];
  replyTimeoutMs: CallRow['reply_timeout_ms'];
  /** The approval's TTL the requester asked for (null: the orchestrator's default). */
  approvalTtlMs: CallRow['approval_ttl_ms'];
  effectDeadlineAt: CallRow['effect_deadline_at'];
  requestContext: {
    llmToolCall?: unknown;
    utteranceHash?: string;
    agent?: Record<string, unknown>;
    /** What the API's gate checked before an announcement was created (decision row rules). */
    gate?: unknown[];
  } | null;
  traceparent: CallRow['traceparent'];
  cancelledBy: CallRow['cancelled_by'];
  cancelReason: CallRow['cancel_reason'];
  createdAt: CallRow['created_at'];
  sentAt: CallRow['sent_at'];
  /** The five stages already on disk for this call. */
  written: Set<EvidenceStage>;
}

/** The selected row (written as an array) as a record. */
export function toCallRecord(
  row: Omit<CallRecord, 'written' | 'arguments' | 'requestContext'> & {
    arguments: unknown;
    requestContext: unknown;
    written: string[];
  },
): CallRecord {
  return {
    ...row,
    arguments: (row.arguments ?? {}) as Record<string, unknown>,
    requestContext: row.requestContext ?? null,
    written: new Set(row.written as EvidenceStage[]),
  };
}
