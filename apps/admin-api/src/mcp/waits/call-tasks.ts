import { Injectable } from '@nestjs/common';
import { ErrorCode, McpError, type CallToolResult, type Task } from '@modelcontextprotocol/sdk/types.js';
import type { CallView } from '../../calls/calls.service';
import { ApiError } from '../../http/api-error';
import { AgentCallsService, type AgentCaller } from '../agent-calls.service';
import { CallResults } from '../call-results';
import { approvalUrl } from './approval-links';
import { lastUpdatedAt, TASK_POLL_MS, taskStatusMessage, taskStatusOf, type TaskStatus } from './call-task';

/** The URL-mode elicitation that sends the user to a call's approval page. */
export interface ApprovalElicitation {
  mode: 'url';
  url: string;
  message: string;
  elicitationId: string;
}

/**
 * Tasks as calls: what every revision's task methods read (the call row, every time) and do (the REST cancel).
 * A task is visible only to the agent whose call it is: another credential's call answers as no task at all.
 */
@Injectable()
export class CallTasks {
  constructor(
    private readonly results: CallResults,
    private readonly agentCalls: AgentCallsService,
  ) {}

  /** The call behind a task, if it is this agent's; undefined for anything else (unknown, or another's). */
  async callOf(caller: AgentCaller, taskId: string): Promise<CallView | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(taskId)) return undefined;
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
    if (!view) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
    return view;
  }

  status(view: CallView): TaskStatus {
    return taskStatusOf(view);
  }

  /** MCP 2025-11-25's Task. */
  task(view: CallView, consoleUrl: string): Task {
    return {
      taskId: view.id,
      status: taskStatusOf(view),
      statusMessage: taskStatusMessage(view, this.approvalUrlOf(view, consoleUrl)),
      createdAt: view.createdAt.toISOString(),
      lastUpdatedAt: lastUpdatedAt(view).toISOString(),
      ttl: null, // a call is kept for good: so is its task
      pollInterval: TASK_POLL_MS,
    };
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

  /** Withdraws a call not yet sent (the REST route's cancel); a sent call cannot be: said as a protocol error. */
  async cancel(caller: AgentCaller, view: CallView, reason: string): Promise<void> {
    if (taskStatusOf(view) !== 'working' && taskStatusOf(view) !== 'input_required') {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Cannot cancel task in terminal status: ${taskStatusOf(view)}`,
      );
    }
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

  confirm(caller: AgentCaller, callId: string, action: string, via: string): Promise<void> {
    return this.agentCalls.recordConfirmation(caller, callId, { action, via });
  }

  private approvalUrlOf(view: CallView, consoleUrl: string): string | undefined {
    return view.verdict === null && view.approval?.state === 'pending'
      ? approvalUrl(consoleUrl, view.approval.id)
      : undefined;
  }
}
