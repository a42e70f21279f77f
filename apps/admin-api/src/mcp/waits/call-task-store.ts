import {
  ErrorCode,
  McpError,
  type Request,
  type RequestId,
  type Result,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  CreateTaskOptions,
  TaskStore,
} from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { AgentCaller } from '../agent-calls.service';
import type { CallTasks } from './call-tasks';

/**
 * The SDK's task store for one legacy session (MCP 2025-11-25 experimental tasks): every task is a call, read
 * from Postgres each time, so nothing here is in memory but who the session's caller is. `tasks/cancel` is the
 * REST route's cancel; a result is the call's, whoever asks for it and whenever.
 */
export class CallTaskStore implements TaskStore {
  constructor(
    private readonly tasks: CallTasks,
    /** The caller of the session's latest request (a session belongs to one credential). */
    private readonly caller: () => AgentCaller,
  ) {}

  async createTask(options: CreateTaskOptions, _requestId: RequestId, _request: Request): Promise<Task> {
    const callId = options.context?.['callId'];
    if (typeof callId !== 'string') throw new McpError(ErrorCode.InternalError, 'a task is made from a call');
    const caller = this.caller();
    return this.tasks.task(await this.tasks.mustCallOf(caller, callId), caller.consoleUrl);
  }

  async getTask(taskId: string): Promise<Task | null> {
    const caller = this.caller();
    const view = await this.tasks.callOf(caller, taskId);
    return view ? this.tasks.task(view, caller.consoleUrl) : null;
  }

  /** Results are the calls' own: nothing to store. */
  async storeTaskResult(): Promise<void> {}

  async getTaskResult(taskId: string): Promise<Result> {
    const caller = this.caller();
    return this.tasks.result(await this.tasks.mustCallOf(caller, taskId), caller.consoleUrl);
  }

  /** Only a cancellation moves a task from outside; every other status follows the call. */
  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string): Promise<void> {
    if (status !== 'cancelled') return;
    const caller = this.caller();
    const view = await this.tasks.mustCallOf(caller, taskId);
    await this.tasks.cancel(
      caller,
      view,
      `the MCP client cancelled the task${statusMessage ? `: ${statusMessage}` : ''}`,
    );
  }

  /** Not offered (the server's capabilities leave out tasks.list): a call list is get_call's and REST's. */
  listTasks(): Promise<{ tasks: Task[] }> {
    return Promise.reject(
      new McpError(ErrorCode.MethodNotFound, 'tasks/list is not offered: read calls with get_call'),
    );
  }
}
