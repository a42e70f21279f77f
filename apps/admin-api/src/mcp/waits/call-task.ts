import type { CallState, Verdict } from '@fleet/domain';
import type { TaskStatus } from './agent-task';

// A call's task (its id is the call's id): its MCP task status from the call's state and verdict.

/** Verdicts that say the request did not come true as asked: the task failed (its result says why). */
const FAILED: ReadonlySet<Verdict> = new Set([
  'rejected',
  'invalid_arguments',
  'device_error',
  'effect_mismatch',
  'undelivered',
  'expired',
]);

export interface CallTaskFacts {
  id: string;
  state: CallState;
  verdict: Verdict | null;
  createdAt: Date;
  sentAt: Date | null;
  sealedAt: Date | null;
  approval: { id: string; state: string; decidedAt: string | null } | null;
}

export function taskStatusOf(call: Pick<CallTaskFacts, 'state' | 'verdict'>): TaskStatus {
  if (call.verdict === 'cancelled') return 'cancelled';
  if (call.verdict !== null) return FAILED.has(call.verdict) ? 'failed' : 'completed';
  // A call waiting for a person waits for input the client cannot give: the approval page's (MCP: URL mode).
  return call.state === 'awaiting_approval' ? 'input_required' : 'working';
}

/** When anything about the call last changed, as far as its row tells. */
export function lastUpdatedAt(call: CallTaskFacts): Date {
  const times = [call.createdAt, call.sentAt, call.sealedAt, call.approval?.decidedAt ?? null]
    .filter((t): t is Date | string => t !== null)
    .map((t) => new Date(t).getTime());
  return new Date(Math.max(...times));
}

/** The task's words: what it waits for, and where a person decides when it waits for one. */
export function taskStatusMessage(call: CallTaskFacts, approvalUrl: string | undefined): string {
  const status = taskStatusOf(call);
  switch (status) {
    case 'input_required':
      return (
        `call ${call.id} waits for a second person's approval (the agent's own confirmation does not count)` +
        (approvalUrl ? `: ${approvalUrl}` : '')
      );
    case 'working':
      return `call ${call.id} is ${call.state}`;
    case 'completed':
    case 'failed':
      return `call ${call.id} ended ${call.verdict}`;
    case 'cancelled':
      return `call ${call.id} was cancelled before it was sent`;
  }
}
