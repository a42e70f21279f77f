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
import type { AgentTasks } from './agent-tasks';

/**
 * The SDK's task store for one legacy session (MCP 2025-11-25 experimental tasks): every task is a call or a
 * campaign, read from Postgres each time, so nothing here is in memory but who the session's caller is.
 * `tasks/cancel` is the REST route's cancel; a result is the row's, whoever asks for it and whenever.
 */
export class TaskStoreOfSession implements TaskStore {
  constructor(
    private readonly tasks: AgentTasks,
    /** The caller of the session's latest request (a session belongs to one credential). */
    private readonly caller: () => AgentCaller,
  ) {}

  /** Tasks are made by the tools (a call or campaign is created first); this reads one back. */
  async createTask(options: CreateTaskOptions, _requestId: RequestId, _request: Request): Promise<Task> {
    const taskId = options.context?.['taskId'];
    if (typeof taskId !== 'string') throw new McpError(ErrorCode.InternalError, 'a task is made from a row');
    return (await this.tasks.mustFind(this.caller(), taskId)).task;
  }

  async getTask(taskId: string): Promise<Task | null> {
    return (await this.tasks.find(this.caller(), taskId))?.task ?? null;
  }

  /** Results are the rows' own: nothing to store. */
  async storeTaskResult(): Promise<void> {}

  async getTaskResult(taskId: string): Promise<Result> {
    return (await this.tasks.mustFind(this.caller(), taskId)).result();
  }

  /** Only a cancellation moves a task from outside; every other status follows its row. */
  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string): Promise<void> {
    if (status !== 'cancelled') return;
    const task = await this.tasks.mustFind(this.caller(), taskId);
    await task.cancel(`the MCP client cancelled the task${statusMessage ? `: ${statusMessage}` : ''}`);
  }

  /** Not offered (the server's capabilities leave out tasks.list): calls are get_call's and REST's to list. */
  listTasks(): Promise<{ tasks: Task[] }> {
    return Promise.reject(
      new McpError(ErrorCode.MethodNotFound, 'tasks/list is not offered: read calls with get_call'),
    );
  }
}
