import { ErrorCode, McpError, type CallToolResult, type Task } from '@modelcontextprotocol/sdk/types.js';

// MCP task statuses (2025-11-25 basic/utilities/tasks, and the io.modelcontextprotocol/tasks extension of
// 2026-07-28). A task here is always a row of the platform's (a call, a campaign), read fresh every time, so a task
// outlives every restart and replica without a store of its own.

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** How often a client should ask again (tasks are kept as long as their rows: for good). */
export const TASK_POLL_MS = 2000;

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** The URL-mode elicitation that sends the user to the console page where a person decides. */
export interface ApprovalElicitation {
  mode: 'url';
  url: string;
  message: string;
  elicitationId: string;
}

/** A task as every revision's methods see it: a call's or a campaign's, as its row says now. */
export interface AgentTask {
  /** MCP 2025-11-25's Task (the 2026-07-28 extension's is made from it). */
  task: Task & { status: TaskStatus };
  /** While a person must act: where, as the URL elicitation that sends the user there. */
  elicitation?: ApprovalElicitation;
  /** What it came to (once terminal), or how it stands, as a tool result. */
  result(): Promise<CallToolResult>;
  /** Withdraws it through the REST route's logic; one that can no longer be withdrawn is a protocol error. */
  cancel(reason: string): Promise<void>;
  /** What the client answered to the page: the requester's own confirmation, recorded, never an approval. */
  confirm(action: string, via: string): Promise<void>;
  /** Resolves at its next change or after `ms` at most: false when it ended for an abort or the process stopping. */
  changed(ms: number, signal: AbortSignal): Promise<boolean>;
}

/** MCP 2025-11-25: cancelling a finished task is an invalid request of the client's. */
export function assertCancellable(status: TaskStatus): void {
  if (isTerminal(status)) {
    throw new McpError(ErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${status}`);
  }
}

export function taskNotFound(taskId: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
}
