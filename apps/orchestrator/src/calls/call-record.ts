import type { CallOrigin, CallState, EvidenceStage, Verdict } from '@fleet/domain';

/** A call row as the pipeline reads it. */
export interface CallRecord {
  id: string;
  deviceId: string;
  partition: number;
  tool: string;
  arguments: Record<string, unknown>;
  origin: CallOrigin;
  reason: string | null;
  operatorId: string | null;
  apiKeyId: string | null;
  voiceTurnId: string | null;
  campaignId: string | null;
  agentId: string | null;
  parentCallId: string | null;
  state: CallState;
  verdict: Verdict | null;
  jsonrpcId: number | null;
  connectionId: string | null;
  deadlineAt: Date;
  replyTimeoutMs: number;
  effectDeadlineAt: Date | null;
  requestContext: { llmToolCall?: unknown; utteranceHash?: string; agent?: Record<string, unknown> } | null;
  traceparent: string | null;
  cancelledBy: string | null;
  cancelReason: string | null;
  createdAt: Date;
  sentAt: Date | null;
  /** The five stages already on disk for this call. */
  written: Set<EvidenceStage>;
}

export const CALL_COLUMNS = `c.id, c.device_id AS "deviceId", c.partition, c.tool, c.arguments, c.origin, c.reason,
  c.operator_id AS "operatorId", c.api_key_id AS "apiKeyId", c.voice_turn_id AS "voiceTurnId",
  c.campaign_id AS "campaignId", c.agent_id AS "agentId", c.parent_call_id AS "parentCallId", c.state, c.verdict,
  c.jsonrpc_id AS "jsonrpcId", c.connection_id AS "connectionId", c.deadline_at AS "deadlineAt",
  c.reply_timeout_ms AS "replyTimeoutMs", c.effect_deadline_at AS "effectDeadlineAt",
  c.request_context AS "requestContext", c.traceparent, c.cancelled_by AS "cancelledBy", c.cancel_reason AS "cancelReason", c.created_at AS "createdAt", c.sent_at AS "sentAt",
  coalesce((SELECT array_agg(e.stage::text) FROM evidence e WHERE e.call_id = c.id), '{}') AS written`;
