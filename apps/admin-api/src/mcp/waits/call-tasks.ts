import { Injectable } from '@nestjs/common';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallView } from '../../calls/calls.service';
import { AuditService } from '../../audit/audit.service';
import { ApiError } from '../../http/api-error';
import { recordConfirmation } from '../agent-audit';
import { AgentCallsService, type AgentCaller } from '../agent-calls.service';
import { CallResults } from '../call-results';
import { CallWatcher } from '../call-watcher';
import {
  assertCancellable,
  taskNotFound,
  TASK_POLL_MS,
  type AgentTask,
  type ApprovalElicitation,
} from './agent-task';
import { approvalUrl } from './approval-links';
import { lastUpdatedAt, taskStatusMessage, taskStatusOf } from './call-task';

const CALL_ID = /^[0-9a-f-]{36}$/i;

/**
 * Calls as tasks (a call's task id is the call's id): what every revision's task methods read (the call row, every
 * time) and do (the REST cancel). A task is visible only to the agent whose call it is: another credential's call
 * answers as no task at all.
 */
@Injectable()
export class CallTasks {
  constructor(
    private readonly results: CallResults,
    private readonly agentCalls: AgentCallsService,
    private readonly watcher: CallWatcher,
    private readonly audit: AuditService,
  ) {}

  /** Whether a task id is a call's. */
  owns(taskId: string): boolean {
    return CALL_ID.test(taskId);
  }

  /** The call behind a task, if it is this agent's; undefined for anything else (unknown, or another's). */
  async callOf(caller: AgentCaller, taskId: string): Promise<CallView | undefined> {
    if (!this.owns(taskId)) return undefined;
    try {
      const view = await this.results.view(taskId);
      return view.origin === 'agent' && view.agentId === caller.agent.agentId ? view : undefined;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  async mustCallOf(caller: AgentCaller, taskId: string): Promise<CallView> {
    const view = await this.callOf(caller, taskId);
    if (!view) throw taskNotFound(taskId);
    return view;
  }

  async find(caller: AgentCaller, taskId: string): Promise<AgentTask | undefined> {
    const view = await this.callOf(caller, taskId);
    return view ? this.asTask(caller, view) : undefined;
  }

  /** The approval page of a call that waits for a person, as the URL elicitation that points at it. */
  elicitation(view: CallView, consoleUrl: string): ApprovalElicitation | undefined {
    const url = this.approvalUrlOf(view, consoleUrl);
    if (!url) return undefined;
    return {
      mode: 'url',
      url,
      elicitationId: view.id,
      message:
        `${view.tool} on ${view.deviceId} needs a second person's approval. Open this page and ask someone ` +
        'other than yourself to approve it there; your own confirmation here is recorded, but does not approve it.',
    };
  }

  result(view: CallView, consoleUrl: string): Promise<CallToolResult> {
    return this.results.resultOf(view, consoleUrl);
  }

  private asTask(caller: AgentCaller, view: CallView): AgentTask {
    const status = taskStatusOf(view);
    const elicitation = this.elicitation(view, caller.consoleUrl);
    return {
      task: {
        taskId: view.id,
        status,
        statusMessage: taskStatusMessage(view, elicitation?.url),
        createdAt: view.createdAt.toISOString(),
        lastUpdatedAt: lastUpdatedAt(view).toISOString(),
        ttl: null, // a call is kept for good: so is its task
        pollInterval: TASK_POLL_MS,
      },
      ...(elicitation ? { elicitation } : {}),
      result: () => this.result(view, caller.consoleUrl),
      cancel: (reason) => this.cancel(caller, view, reason),
      confirm: (action, via) =>
        recordConfirmation(this.audit, caller, { type: 'call', id: view.id }, { action, via }),
      changed: async (ms, signal) =>
        (await this.watcher.watch(view.id, { timeoutMs: ms, signal, onState: () => {} })).kind !== 'aborted',
    };
  }

  /** Withdraws a call not yet sent (the REST route's cancel); a sent call cannot be: said as a protocol error. */
  private async cancel(caller: AgentCaller, view: CallView, reason: string): Promise<void> {
    assertCancellable(taskStatusOf(view));
    try {
      await this.agentCalls.cancel(caller, view.id, reason);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        throw new McpError(
          ErrorCode.InvalidParams,
          'the call has already been sent: a sent call cannot be cancelled (the device may act on it)',
        );
      }
      throw err;
    }
  }

  private approvalUrlOf(view: CallView, consoleUrl: string): string | undefined {
    return view.verdict === null && view.approval?.state === 'pending'
      ? approvalUrl(consoleUrl, view.approval.id)
      : undefined;
  }
}
