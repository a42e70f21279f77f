import { Inject, Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { roleAllows } from '@fleet/auth';
import type { Logger } from '@fleet/telemetry';
import { AuditService } from '../audit/audit.service';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { ApiError } from '../http/api-error';
import { LOGGER } from '../infra/tokens';
import { AgentCallsService, type AgentCaller } from './agent-calls.service';
import { CallResults } from './call-results';
import { CallWatcher } from './call-watcher';
import { fleetTool, type FleetTool, type ToolAnswer, type ToolContext } from './fleet-tool';
import {
  callOutcome as callOutcomeSchema,
  callToolInput,
  cancelCallInput,
  type CallToolInput,
} from './mcp-schemas';
import { ProgressReporter } from './progress-reporter';
import { agentCallerOf, deniedTool } from './tool-caller';
import { answer, guarded } from './tool-results';

const CANCEL_SEAL_WAIT_MS = 5_000; // the orchestrator seals a cancelled call as soon as it wakes

/** The tools that reach devices (operator and up): calling a tool, and withdrawing a call not yet sent. */
@Injectable()
export class CallTools {
  constructor(
    private readonly agentCalls: AgentCallsService,
    private readonly results: CallResults,
    private readonly watcher: CallWatcher,
    private readonly audit: AuditService,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  tools(): FleetTool[] {
    return [
      fleetTool(
        'call_device_tool',
        {
          title: 'Call a tool on a device',
          description:
            'Asks the platform to call one of the tools list_device_tools shows, on one device (operator role). ' +
            'The platform decides, orders, sends and verifies it, and answers with a verdict: only `verified` ' +
            'means the effect was observed; `acknowledged` means the device said so and nothing could check it. ' +
            'A call to an offline or busy device waits for its turn (progress is reported) and can be cancelled ' +
            'until it is sent. A tool reserved to people (a reboot, an upgrade, one marked sensitive) may be ' +
            "asked for by name: it then waits for a second person's approval on the console's approval page, " +
            'whose URL the answer gives (your own confirmation does not approve it). A call that waits is ' +
            'answered as a task where the client takes tasks; otherwise, if the wait ends first, the answer ' +
            'carries the callId: read it later with get_call.',
          inputSchema: callToolInput,
          outputSchema: callOutcomeSchema,
          annotations: {
            title: 'Call a tool on a device',
            readOnlyHint: false,
            destructiveHint: true, // device tools change settings and may act on the world
            idempotentHint: false, // a repeated call is sent again (unless it carries the same idempotencyKey)
            openWorldHint: true, // it reaches physical devices, online or not
          },
          // MCP 2025-11-25: a client may ask for a task; a call that waits for a person or a device is one.
          execution: { taskSupport: 'optional' },
        },
        (input, ctx) =>
          guarded(this.logger, 'call_device_tool', async (): Promise<ToolAnswer> => {
            const caller = agentCallerOf(ctx);
            if (!roleAllows(caller.actor.role, 'operator'))
              return deniedTool(this.audit, caller, 'call_device_tool');
            const work = () => this.callDeviceTool(caller, input, ctx);
            return ctx.session ? ctx.session.busy(work) : work();
          }),
      ),
      fleetTool(
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
        ({ callId, reason }, ctx) =>
          guarded(this.logger, 'cancel_call', async (): Promise<ToolAnswer> => {
            const caller = agentCallerOf(ctx);
            if (!roleAllows(caller.actor.role, 'operator'))
              return deniedTool(this.audit, caller, 'cancel_call');
            return answer(
              await this.cancelCall(caller, callId, reason ?? 'cancelled by an agent through MCP', ctx),
            );
          }),
      ),
    ];
  }

  /**
   * The call, then the answer its client can take: a task where the client asked for one (2025-11-25) or takes
   * them and the call outlasts a short budget (2026-07-28); the approval page where a person must decide and the
   * client can open URLs; otherwise the verdict, or the state once the wait is over (as every client reads).
   */
  private async callDeviceTool(
    caller: AgentCaller,
    input: CallToolInput,
    ctx: ToolContext,
  ): Promise<ToolAnswer> {
    const { wait, extra } = ctx;
    const created = await this.agentCalls.createOrJoin(caller, input);
    const { callId } = created;
    if (wait.taskRequested) return { kind: 'task', taskId: callId };
    const awaitingPerson = created.state === 'awaiting_approval';
    if (wait.tasksOffered) {
      if (awaitingPerson) return { kind: 'task', taskId: callId };
      const end = await this.watcher.watch(callId, {
        timeoutMs: this.config.MCP_TASK_BUDGET_MS,
        signal: extra.signal,
        onState: () => {},
      });
      if (end.kind !== 'sealed') return { kind: 'task', taskId: callId };
      return answer(await this.resultOf(caller, callId));
    }
    if (awaitingPerson && wait.urlElicitation) {
      const approvalId = created.approvalId ?? (await this.results.view(callId)).approval?.id;
      if (approvalId) return { kind: 'needs_person', callId, approvalId };
    }
    const progress = new ProgressReporter(extra, callId);
    await progress.report({ state: created.state, verdict: null }); // the callId reaches the client before any wait
    const end = await this.watcher.watch(callId, {
      timeoutMs: (input.waitS ?? this.config.MCP_CALL_WAIT_S) * 1000,
      signal: extra.signal,
      onState: (row) => progress.report(row),
    });
    if (end.kind === 'aborted') await this.afterAbort(caller, callId, ctx);
    // After a cancellation the SDK sends no response; otherwise this is the answer.
    return answer(await this.resultOf(caller, callId));
  }

  private async resultOf(caller: AgentCaller, callId: string): Promise<CallToolResult> {
    return this.results.resultOf(await this.results.view(callId), caller.consoleUrl);
  }

  /**
   * `notifications/cancelled` for a call in progress (a legacy session), or the closed response stream of a
   * stateless request (MCP 2026-07-28: closing it is the cancellation): the REST route's atomic cancel. A closing
   * legacy session is not a cancellation (MCP: a disconnect does not cancel), so the call goes on.
   */
  private async afterAbort(caller: AgentCaller, callId: string, ctx: ToolContext): Promise<void> {
    const { session, extra } = ctx;
    const cancellation = session ? session.cancellationOf(extra.requestId) : { reason: 'the stream closed' };
    if (!cancellation) return;
    const reason = `the MCP client cancelled the request${cancellation.reason ? `: ${cancellation.reason}` : ''}`;
    try {
      await this.agentCalls.cancel(caller, callId, reason);
      await session?.tell(extra.requestId, 'info', {
        callId,
        cancelled: true,
        message: 'cancelled before it was sent',
      });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 409) throw err;
      await session?.tell(extra.requestId, 'warning', {
        callId,
        cancelled: false,
        message:
          'the call had already been sent: a sent call cannot be cancelled (the device may act on it); ' +
          'read its verdict with get_call',
      });
    } finally {
      session?.endRequestStream(extra.requestId);
    }
  }

  private async cancelCall(
    caller: AgentCaller,
    callId: string,
    reason: string,
    ctx: ToolContext,
  ): Promise<CallToolResult> {
    try {
      await this.agentCalls.cancel(caller, callId, reason);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 409) throw err;
      const result = await this.resultOf(caller, callId);
      const words =
        'Not cancelled: the call has already been sent or has finished, and a sent call cannot be cancelled ' +
        '(the device may already have acted on it).';
      return { ...result, content: [{ type: 'text', text: words }, ...result.content], isError: true };
    }
    await this.watcher.watch(callId, {
      timeoutMs: CANCEL_SEAL_WAIT_MS,
      signal: ctx.extra.signal,
      onState: () => {},
    });
    const result = await this.resultOf(caller, callId);
    return {
      ...result,
      content: [{ type: 'text', text: 'Cancelled before it was sent.' }, ...result.content],
      isError: false,
    };
  }
}
