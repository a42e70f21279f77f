import type { AuditService } from '../audit/audit.service';
import { auditableBody } from '../audit/audit.service';
import { ApiError } from '../http/api-error';
import type { AgentCaller } from './agent-calls.service';

/** What an agent asked for, named as the REST route that does the same names it (`campaign.start` on a `campaign`). */
export interface AgentStep<T> {
  action: string;
  targetType: string;
  /** The target, known before (a cancel's) or from the result (a create's). */
  targetId: string | null | ((result: T) => string);
  /** The status the REST route answers when it is done. */
  status: number;
  params: Record<string, unknown>;
  body: unknown;
}

/**
 * One audit event per step an agent takes through /mcp, done or refused, with what the REST route would record
 * and the agent beside it. Only a refusal (an ApiError) is recorded as one; anything else is no step taken.
 */
export async function auditedStep<T>(
  audit: AuditService,
  caller: AgentCaller,
  step: AgentStep<T>,
  work: () => Promise<T>,
): Promise<T> {
  const record = (status: number, targetId: string | null, error?: ApiError) =>
    audit.record(caller.actor, caller.origin, {
      action: step.action,
      targetType: step.targetType,
      targetId,
      details: {
        via: 'mcp',
        status,
        outcome: error ? 'refused' : 'done',
        ...(error ? { error: error.code, message: error.message } : {}),
        params: step.params,
        body: auditableBody(step.body),
        agent: caller.agent.context,
      },
    });
  const known = typeof step.targetId === 'function' ? null : step.targetId;
  try {
    const result = await work();
    await record(step.status, typeof step.targetId === 'function' ? step.targetId(result) : known);
    return result;
  } catch (err) {
    if (err instanceof ApiError) await record(err.status, known, err);
    throw err;
  }
}

/**
 * What an agent's client answered to a console page it was sent to (MCP elicitation): the requester's own
 * confirmation, recorded as `<call|campaign>.requester_confirmation`, and never an approval (DESIGN §4: a second
 * person decides, in the console).
 */
export async function recordConfirmation(
  audit: AuditService,
  caller: AgentCaller,
  target: { type: 'call' | 'campaign'; id: string },
  answer: { action: string; via: string },
): Promise<void> {
  await audit.record(caller.actor, caller.origin, {
    action: `${target.type}.requester_confirmation`,
    targetType: target.type,
    targetId: target.id,
    details: {
      via: 'mcp',
      answer: answer.action.slice(0, 20),
      channel: answer.via,
      counts_as_approval: false,
      agent: caller.agent.context,
    },
  });
}
