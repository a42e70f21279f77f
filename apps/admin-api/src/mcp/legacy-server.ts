import { Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  GetTaskPayloadRequestSchema,
  ListToolsRequestSchema,
  RELATED_TASK_META_KEY,
  UrlElicitationRequiredError,
  type CallToolResult,
  type CreateTaskResult,
} from '@modelcontextprotocol/sdk/types.js';
import { agentIdentity } from './agent-identity';
import type { AgentCaller } from './agent-calls.service';
import { FleetTools } from './fleet-tools';
import type { ToolContext } from './fleet-tool';
import type { McpSessionContext } from './mcp-session';
import { INSTRUCTIONS, SERVER_INFO } from './server-instructions';
import { callerOf, type ToolExtra } from './tool-results';
import { AgentTasks } from './waits/agent-tasks';
import { isTerminal, TASK_POLL_MS } from './waits/agent-task';
import { CallTasks } from './waits/call-tasks';
import { TaskStoreOfSession } from './waits/task-store';

/**
 * One MCP server per legacy session (MCP 2025-03-26 to 2025-11-25, opened by `initialize`; the SDK binds a server
 * to one transport): the fleet's tools, and 2025-11-25's experimental tasks, each task a call or a campaign.
 */
@Injectable()
export class LegacyMcpServers {
  constructor(
    private readonly tools: FleetTools,
    private readonly tasks: AgentTasks,
    private readonly calls: CallTasks,
  ) {}

  create(session: McpSessionContext): Server {
    const callerOfSession = (): AgentCaller => {
      const caller = session.caller();
      return {
        ...caller,
        agent: agentIdentity(caller.actor, session.clientInfo(), session.id, caller.protocolVersion),
      };
    };
    const server = new Server(SERVER_INFO, {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        tasks: { cancel: {}, requests: { tools: { call: {} } } },
      },
      instructions: INSTRUCTIONS,
      taskStore: new TaskStoreOfSession(this.tasks, callerOfSession),
    });
    const set = this.tools.set;
    server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => ({
      tools: set.listings(callerOf(extra).actor.role),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const tool = set.get(request.params.name);
      const caps = server.getClientCapabilities();
      const ctx: ToolContext = {
        extra,
        session,
        wait: {
          revision: callerOf(extra).protocolVersion,
          taskRequested: request.params.task !== undefined,
          tasksOffered: false,
          urlElicitation: caps?.elicitation?.url !== undefined,
        },
      };
      const answer = await tool.run(request.params.arguments, ctx);
      switch (answer.kind) {
        case 'result':
          return answer.result;
        case 'task': {
          const { task } = await this.tasks.mustFind(callerOfSession(), answer.taskId);
          return { task } satisfies CreateTaskResult;
        }
        case 'needs_person': {
          // MCP 2025-11-25: the request cannot go on until the user has been to this URL (-32042).
          const caller = callerOfSession();
          const view = await this.calls.mustCallOf(caller, answer.callId);
          const elicitation = this.calls.elicitation(view, caller.consoleUrl)!;
          throw new UrlElicitationRequiredError([elicitation], elicitation.message);
        }
      }
    });
    server.setRequestHandler(GetTaskPayloadRequestSchema, (request, extra) =>
      this.taskResult(server, callerOfSession, request.params.taskId, extra),
    );
    return server;
  }

  /**
   * `tasks/result` (2025-11-25): blocks until the call or campaign is finished. While it waits for a person, the
   * client that declared URL elicitation is sent once to the page where a person decides (`elicitation/create`, mode url, on this request's
   * stream); what it answers is the requester's own confirmation, recorded, and the task keeps waiting.
   */
  private async taskResult(
    server: Server,
    callerOfSession: () => AgentCaller,
    taskId: string,
    extra: ToolExtra,
  ): Promise<CallToolResult> {
    const caller = callerOfSession();
    let elicited = false;
    for (;;) {
      const task = await this.tasks.mustFind(caller, taskId);
      if (isTerminal(task.task.status)) {
        const result = await task.result();
        return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
      }
      if (
        task.task.status === 'input_required' &&
        task.elicitation &&
        !elicited &&
        server.getClientCapabilities()?.elicitation?.url
      ) {
        elicited = true;
        const said = await extra
          .sendRequest({ method: 'elicitation/create', params: task.elicitation }, ElicitResultSchema)
          .catch(() => undefined); // a client that does not answer leaves the task as it was
        if (said) await task.confirm(said.action, 'elicitation/create (tasks/result)');
      }
      if (!(await task.changed(TASK_POLL_MS, extra.signal))) throw new Error('tasks/result was cancelled');
    }
  }
}
