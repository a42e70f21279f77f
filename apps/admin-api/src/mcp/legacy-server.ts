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
import { CallWatcher } from './call-watcher';
import { FleetTools } from './fleet-tools';
import type { ToolContext } from './fleet-tool';
import type { McpSessionContext } from './mcp-session';
import { INSTRUCTIONS, SERVER_INFO } from './server-instructions';
import { callerOf, type ToolExtra } from './tool-results';
import { isTerminal, TASK_POLL_MS } from './waits/call-task';
import { CallTaskStore } from './waits/call-task-store';
import { CallTasks } from './waits/call-tasks';

/**
 * One MCP server per legacy session (MCP 2025-03-26 to 2025-11-25, opened by `initialize`; the SDK binds a server
 * to one transport): the fleet's tools, and 2025-11-25's experimental tasks, each task a call.
 */
@Injectable()
export class LegacyMcpServers {
  constructor(
    private readonly tools: FleetTools,
    private readonly tasks: CallTasks,
    private readonly watcher: CallWatcher,
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
      taskStore: new CallTaskStore(this.tasks, callerOfSession),
    });
    const set = this.tools.set;
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: set.listings() }));
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
          const caller = callerOfSession();
          const view = await this.tasks.mustCallOf(caller, answer.callId);
          return { task: this.tasks.task(view, caller.consoleUrl) } satisfies CreateTaskResult;
        }
        case 'needs_person': {
          // MCP 2025-11-25: the request cannot go on until the user has been to this URL (-32042).
          const caller = callerOfSession();
          const view = await this.tasks.mustCallOf(caller, answer.callId);
          const elicitation = this.tasks.elicitation(view, caller.consoleUrl)!;
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
   * `tasks/result` (2025-11-25): blocks until the call is finished. While it waits for a person, the client that
   * declared URL elicitation is sent once to the approval page (`elicitation/create`, mode url, on this request's
   * stream); what it answers is the requester's own confirmation, recorded, and the call keeps waiting.
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
      const view = await this.tasks.mustCallOf(caller, taskId);
      const status = this.tasks.status(view);
      if (isTerminal(status)) {
        const result = await this.tasks.result(view, caller.consoleUrl);
        return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
      }
      const elicitation = this.tasks.elicitation(view, caller.consoleUrl);
      if (
        status === 'input_required' &&
        elicitation &&
        !elicited &&
        server.getClientCapabilities()?.elicitation?.url
      ) {
        elicited = true;
        const said = await extra
          .sendRequest({ method: 'elicitation/create', params: elicitation }, ElicitResultSchema)
          .catch(() => undefined); // a client that does not answer leaves the call as it was
        if (said) await this.tasks.confirm(caller, view.id, said.action, 'elicitation/create (tasks/result)');
      }
      const end = await this.watcher.watch(taskId, {
        timeoutMs: TASK_POLL_MS,
        signal: extra.signal,
        onState: () => {},
      });
      if (end.kind === 'aborted') throw new Error('tasks/result was cancelled');
    }
  }
}
