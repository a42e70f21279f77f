import { Inject, Injectable } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { roleAllows } from '@fleet/auth';
import type { Logger } from '@fleet/telemetry';
import { AuditService } from '../audit/audit.service';
import { CallsService } from '../calls/calls.service';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { ApiError } from '../http/api-error';
import { LOGGER } from '../infra/tokens';
import { agentIdentity } from './agent-identity';
import { AgentCallsService, type AgentCaller } from './agent-calls.service';
import { callOutcome, isFailedVerdict, outcomeWords } from './call-outcome';
import { CallWatcher } from './call-watcher';
import {
  callOutcome as callOutcomeSchema,
  callToolInput,
  cancelCallInput,
  type CallToolInput,
} from './mcp-schemas';
import type { McpSessionContext } from './mcp-session';
import { ProgressReporter } from './progress-reporter';
import { callerOf, dataResult, guarded, toolError, type ToolExtra } from './tool-results';

const CANCEL_SEAL_WAIT_MS = 5_000; // the orchestrator seals a cancelled call as soon as it wakes

/** The tools that reach devices (operator and up): calling a tool, and withdrawing a call not yet sent. */
@Injectable()
export class CallTools {
  constructor(
    private readonly agentCalls: AgentCallsService,
    private readonly calls: CallsService,
    private readonly watcher: CallWatcher,
    private readonly audit: AuditService,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  register(server: McpServer, session: McpSessionContext): void {
    server.registerTool(
      'call_device_tool',
      {
        title: 'Call a tool on a device',
        description:
          'Asks the platform to call one of the tools list_device_tools shows, on one device (operator role). ' +
          'The platform decides, orders, sends and verifies it, and answers with a verdict: only `verified` ' +
          'means the effect was observed; `acknowledged` means the device said so and nothing could check it. ' +
          'A call to an offline or busy device waits for its turn (progress is reported) and can be cancelled ' +
          'until it is sent. If the wait ends first, the answer carries the callId: read it later with get_call.',
        inputSchema: callToolInput,
        outputSchema: callOutcomeSchema,
        annotations: {
          title: 'Call a tool on a device',
          readOnlyHint: false,
          destructiveHint: true, // device tools change settings and may act on the world (any AI-visible tool)
          idempotentHint: false, // a repeated call is sent again (unless it carries the same idempotencyKey)
          openWorldHint: true, // it reaches physical devices, online or not
        },
      },
      (input, extra) =>
        guarded(this.logger, 'call_device_tool', async () => {
          const caller = this.caller(extra, session);
          if (!roleAllows(caller.actor.role, 'operator')) return this.denied(caller, 'call_device_tool');
          return session.busy(() => this.callDeviceTool(session, caller, input, extra));
        }),
    );

    server.registerTool(
      'cancel_call',
      {
        title: 'Cancel a call not yet sent',
        description:
          'Withdraws a call that has not been sent (operator role); it ends `cancelled`. A call already sent ' +
          'cannot be cancelled: the device may already have acted on it.',
        inputSchema: cancelCallInput,
        outputSchema: callOutcomeSchema,
        annotations: {
          title: 'Cancel a call not yet sent',
          readOnlyHint: false,
          destructiveHint: false, // it only keeps a request from going out
          idempotentHint: true, // cancelling again changes nothing more
          openWorldHint: false,
        },
      },
      ({ callId, reason }, extra) =>
        guarded(this.logger, 'cancel_call', async () => {
          const caller = this.caller(extra, session);
          if (!roleAllows(caller.actor.role, 'operator')) return this.denied(caller, 'cancel_call');
          return this.cancelCall(caller, callId, reason ?? 'cancelled by an agent through MCP', extra);
        }),
    );
  }

  private async callDeviceTool(
    session: McpSessionContext,
    caller: AgentCaller,
    input: CallToolInput,
    extra: ToolExtra,
  ): Promise<CallToolResult> {
    const { callId, state } = await this.agentCalls.create(caller, input);
    const progress = new ProgressReporter(extra, callId);
    await progress.report({ state, verdict: null }); // the callId reaches the client before any wait
    const end = await this.watcher.watch(callId, {
      timeoutMs: (input.waitS ?? this.config.MCP_CALL_WAIT_S) * 1000,
      signal: extra.signal,
      onState: (row) => progress.report(row),
    });
    if (end.kind === 'aborted') await this.afterAbort(session, caller, callId, extra);
    // After a cancellation the SDK sends no response; otherwise this is the answer.
    const outcome = callOutcome(await this.calls.get(callId));
    return dataResult(outcomeWords(outcome), outcome, isFailedVerdict(outcome.verdict));
  }

  /**
   * `notifications/cancelled` for a call in progress: the REST route's atomic cancel. A closing session is not a
   * cancellation (MCP: a disconnect does not cancel), so the call goes on and stays readable with get_call.
   */
  private async afterAbort(
    session: McpSessionContext,
    caller: AgentCaller,
    callId: string,
    extra: ToolExtra,
  ): Promise<void> {
    const cancellation = session.cancellationOf(extra.requestId);
    if (!cancellation) return;
    const reason = `the MCP client cancelled the request${cancellation.reason ? `: ${cancellation.reason}` : ''}`;
    try {
      await this.agentCalls.cancel(caller, callId, reason);
      await session.tell(extra.requestId, 'info', {
        callId,
        cancelled: true,
        message: 'cancelled before it was sent',
      });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 409) throw err;
      await session.tell(extra.requestId, 'warning', {
        callId,
        cancelled: false,
        message:
          'the call had already been sent: a sent call cannot be cancelled (the device may act on it); ' +
          'read its verdict with get_call',
      });
    } finally {
      session.endRequestStream(extra.requestId);
    }
  }

  private async cancelCall(
    caller: AgentCaller,
    callId: string,
    reason: string,
    extra: ToolExtra,
  ): Promise<CallToolResult> {
    try {
      await this.agentCalls.cancel(caller, callId, reason);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 409) throw err;
      const outcome = callOutcome(await this.calls.get(callId));
      const words =
        'Not cancelled: the call has already been sent or has finished, and a sent call cannot be cancelled ' +
        `(the device may already have acted on it).\n${outcomeWords(outcome)}`;
      return dataResult(words, outcome, true);
    }
    await this.watcher.watch(callId, {
      timeoutMs: CANCEL_SEAL_WAIT_MS,
      signal: extra.signal,
      onState: () => {},
    });
    const outcome = callOutcome(await this.calls.get(callId));
    return dataResult(`Cancelled before it was sent.\n${outcomeWords(outcome)}`, outcome);
  }

  private caller(extra: ToolExtra, session: McpSessionContext): AgentCaller {
    const { actor, origin } = callerOf(extra);
    return { actor, origin, agent: agentIdentity(actor, session.clientInfo(), session.id) };
  }

  /** As the REST guard does for a mutating route: the refusal is audited, then said plainly. */
  private async denied(caller: AgentCaller, tool: string): Promise<CallToolResult> {
    await this.audit.record(caller.actor, caller.origin, {
      action: 'access.denied',
      targetType: 'mcp_tool',
      targetId: tool,
      details: { via: 'mcp', needed: 'operator', held: caller.actor.role, agent: caller.agent.context },
    });
    return toolError('role_required', `${tool} needs the operator role; yours is ${caller.actor.role}`);
  }
}
