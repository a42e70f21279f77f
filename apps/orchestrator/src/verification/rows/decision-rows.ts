import { busyLockRecord, busyLockRule, type BusyLockOutcome, type DecisionPayload } from '@fleet/domain';
import type { CallRecord } from '../../calls/call-record';

// Decision rows (DESIGN §1, §4: who asked, what exactly, which rules applied with what result, the outcome).

export function requestedBy(call: CallRecord): DecisionPayload['requestedBy'] {
  return {
    origin: call.origin,
    ...(call.operatorId ? { operatorId: call.operatorId } : {}),
    ...(call.apiKeyId ? { apiKeyId: call.apiKeyId } : {}),
    ...(call.voiceTurnId ? { voiceTurnId: call.voiceTurnId } : {}),
    ...(call.campaignId ? { campaignId: call.campaignId } : {}),
    ...(call.agentId ? { agentId: call.agentId } : {}),
    ...(call.parentCallId ? { parentCallId: call.parentCallId } : {}),
  };
}

export function decisionRow(
  call: CallRecord,
  outcome: DecisionPayload['outcome'],
  rules: DecisionPayload['rules'],
  extra: Partial<Pick<DecisionPayload, 'reason' | 'approval' | 'priorState'>> & {
    llmToolCall?: unknown;
    utteranceHash?: string;
  } = {},
): DecisionPayload {
  const { llmToolCall, utteranceHash, ...rest } = extra;
  const context = call.requestContext ?? {};
  const toolCall = llmToolCall ?? context.llmToolCall;
  const hash = utteranceHash ?? context.utteranceHash;
  return {
    requestedBy: { ...requestedBy(call), ...(context.agent ? { agent: context.agent } : {}) },
    request: {
      tool: call.tool,
      arguments: call.arguments,
      ...(call.reason ? { reason: call.reason } : {}),
      ...(hash ? { utteranceHash: hash } : {}),
      ...(toolCall !== undefined ? { llmToolCall: toolCall } : {}),
    },
    rules,
    outcome,
    ...rest,
  };
}

/** The busy lock's rule as a decision row cites it: what it waited for, and who let the call go. */
export function busyLockDecisionRule(
  outcome: Exclude<BusyLockOutcome, { kind: 'hold' }>,
): DecisionPayload['rules'][number] {
  return { ...busyLockRule(outcome), lock: busyLockRecord(outcome) };
}

/** The decision outcome a sealed verdict implies when nothing else wrote the row (DESIGN §1: all five rows). */
export function decisionOutcomeOf(verdict: string, notSent: boolean): DecisionPayload['outcome'] {
  if (!notSent) return 'allowed';
  return verdict === 'expired' || verdict === 'cancelled' || verdict === 'undelivered' ? verdict : 'rejected';
}
