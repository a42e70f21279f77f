import type { AuditService } from '../audit/audit.service';
import { agentIdentity } from './agent-identity';
import type { AgentCaller } from './agent-calls.service';
import type { ToolAnswer, ToolContext } from './fleet-tool';
import { answer, callerOf, toolError } from './tool-results';

/** The agent behind a tool call: its credential, and the client it says it is (per session, or per request). */
export function agentCallerOf(ctx: ToolContext): AgentCaller {
  const { actor, origin, consoleUrl, protocolVersion, clientInfo, traceparent } = callerOf(ctx.extra);
  const client = ctx.session?.clientInfo() ?? clientInfo;
  return {
    actor,
    origin,
    consoleUrl,
    ...(traceparent ? { traceparent } : {}),
    agent: agentIdentity(actor, client, ctx.session?.id ?? '', protocolVersion),
  };
}

/** As the REST guard does for a mutating route: the refusal is audited, then said plainly. */
export async function deniedTool(
  audit: AuditService,
  caller: AgentCaller,
  tool: string,
): Promise<ToolAnswer> {
  await audit.record(caller.actor, caller.origin, {
    action: 'access.denied',
    targetType: 'mcp_tool',
    targetId: tool,
    details: { via: 'mcp', needed: 'operator', held: caller.actor.role, agent: caller.agent.context },
  });
  return answer(toolError('role_required', `${tool} needs the operator role; yours is ${caller.actor.role}`));
}
