import { Injectable } from '@nestjs/common';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { contextFromTraceparent, inSpan } from '@fleet/telemetry';
import type { CallView } from '../../calls/calls.service';
import { agentIdentity } from '../agent-identity';
import type { AgentCaller } from '../agent-calls.service';
import { FleetTools } from '../fleet-tools';
import type { ToolAnswer, ToolContext } from '../fleet-tool';
import { callToolInput } from '../mcp-schemas';
import { INSTRUCTIONS, SERVER_INFO } from '../server-instructions';
import type { RequestCaller, ToolExtra } from '../tool-results';
import { isTerminal, TASK_POLL_MS, type AgentTask } from '../waits/agent-task';
import { AgentTasks } from '../waits/agent-tasks';
import { CallTasks } from '../waits/call-tasks';
import { RequestStates } from '../waits/request-states';
import {
  ERRORS,
  headerMismatch,
  META,
  MODERN_VERSION,
  parseEnvelope,
  SUPPORTED_VERSIONS,
  type ModernEnvelope,
} from './modern-request';

export interface ModernAnswer {
  status: number;
  body?: unknown;
}

/** How long a client may cache tools/list (MCP 2026-07-28 `ttlMs`): the platform's tools change with releases. */
const TOOLS_TTL_MS = 5 * 60_000;
const INPUT_KEY = 'approval';

/**
 * MCP 2026-07-28 on the same `/mcp`: stateless requests with their version, client and capabilities in `_meta`
 * (no initialize, no session), results with `resultType`, waits as `input_required` (MRTR, with a signed,
 * single-use `requestState`) or as tasks of the `io.modelcontextprotocol/tasks` extension, each task a call.
 */
@Injectable()
export class ModernMcp {
  constructor(
    private readonly tools: FleetTools,
    private readonly tasks: AgentTasks,
    private readonly calls: CallTasks,
    private readonly states: RequestStates,
  ) {}

  async handle(
    body: unknown,
    headers: Record<string, string | string[] | undefined>,
    caller: Omit<RequestCaller, 'protocolVersion' | 'clientInfo'>,
    signal: AbortSignal,
  ): Promise<ModernAnswer> {
    const request = parseEnvelope(body);
    if (!request) return rpcError(400, null, ErrorCode.InvalidRequest, 'not a JSON-RPC 2.0 request');
    if (request.version !== undefined && request.version !== MODERN_VERSION) {
      return rpcError(400, request.id, ERRORS.unsupportedVersion, 'Unsupported protocol version', {
        supported: SUPPORTED_VERSIONS,
        requested: request.version,
      });
    }
    const mismatch = headerMismatch(headers, request);
    if (mismatch) return rpcError(400, request.id, ERRORS.headerMismatch, mismatch);
    if (request.id === undefined) return { status: 202 }; // no client notification means anything here
    const full: RequestCaller = {
      ...caller,
      protocolVersion: MODERN_VERSION,
      ...(request.traceparent ? { traceparent: request.traceparent } : {}),
      ...(request.clientInfo ? { clientInfo: request.clientInfo } : {}),
    };
    const agent: AgentCaller = {
      ...full,
      agent: agentIdentity(caller.actor, request.clientInfo, '', MODERN_VERSION),
    };
    // `traceparent` in `_meta` continues the client's trace: the call row and the orchestrator's work join it.
    return inSpan(
      'mcp.request',
      { parent: contextFromTraceparent(request.traceparent), attributes: { 'mcp.method': request.method } },
      async () => {
        try {
          const result = await this.dispatch(request, full, agent, signal);
          if (result === undefined)
            return rpcError(404, request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
          return {
            status: 200,
            body: {
              jsonrpc: '2.0',
              id: request.id,
              result: {
                ...result,
                _meta: { ...(result['_meta'] as object), [META.serverInfo]: SERVER_INFO },
              },
            },
          };
        } catch (err) {
          if (err instanceof McpError) {
            // The SDK's McpError prefixes its code to the message; the JSON-RPC error carries the code itself.
            const message = err.message.replace(/^MCP error -?\d+: /, '');
            return rpcError(200, request.id, err.code, message, err.data);
          }
          throw err;
        }
      },
    );
  }

  private async dispatch(
    request: ModernEnvelope,
    caller: RequestCaller,
    agent: AgentCaller,
    signal: AbortSignal,
  ): Promise<Record<string, unknown> | undefined> {
    const params = request.params;
    switch (request.method) {
      case 'server/discover':
        return {
          resultType: 'complete',
          supportedVersions: SUPPORTED_VERSIONS,
          capabilities: { tools: { listChanged: false }, logging: {}, extensions: { [META.tasks]: {} } },
          serverInfo: SERVER_INFO,
          instructions: INSTRUCTIONS,
        };
      case 'ping':
        return { resultType: 'complete' };
      case 'tools/list':
        // Deterministic: by name, the same for every credential of a role (cached per credential: private).
        return {
          resultType: 'complete',
          tools: this.tools.set.listings(caller.actor.role),
          ttlMs: TOOLS_TTL_MS,
          cacheScope: 'private',
        };
      case 'tools/call':
        return this.callTool(request, caller, agent, signal);
      case 'tasks/get': {
        const task = await this.tasks.mustFind(agent, stringParam(params, 'taskId'));
        return { resultType: 'complete', ...(await modernTask(task)) };
      }
      case 'tasks/update': {
        const task = await this.tasks.mustFind(agent, stringParam(params, 'taskId'));
        await recordAnswer(task, params['inputResponses'], 'tasks/update');
        return { resultType: 'complete' };
      }
      case 'tasks/cancel': {
        const task = await this.tasks.mustFind(agent, stringParam(params, 'taskId'));
        await task.cancel('the MCP client cancelled the task');
        return { resultType: 'complete' };
      }
      default:
        return undefined;
    }
  }

  private async callTool(
    request: ModernEnvelope,
    caller: RequestCaller,
    agent: AgentCaller,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const params = request.params;
    const name = stringParam(params, 'name');
    const tool = this.tools.set.get(name);
    const state = params['requestState'];
    if (state !== undefined) return this.resume(name, params, state, agent, caller);
    const extensions = request.capabilities.extensions ?? {};
    const ctx: ToolContext = {
      extra: toolExtra(request, caller, signal),
      wait: {
        revision: MODERN_VERSION,
        taskRequested: false,
        tasksOffered: extensions[META.tasks] !== undefined,
        urlElicitation: request.capabilities.elicitation !== undefined,
      },
    };
    return this.answer(await tool.run(params['arguments'], ctx), agent, params);
  }

  /**
   * The retry of an `input_required` answer: its `requestState` must be ours, fresh, this agent's, for this very
   * request, and unused. What the client answered is the requester's own confirmation: recorded, never the
   * approval, so a call still waiting for a person is answered `input_required` again.
   */
  private async resume(
    name: string,
    params: Record<string, unknown>,
    state: unknown,
    agent: AgentCaller,
    caller: RequestCaller,
  ): Promise<Record<string, unknown>> {
    const input = callToolInput.safeParse(params['arguments'] ?? {});
    if (name !== 'call_device_tool' || typeof state !== 'string' || !input.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        'requestState refused: it belongs to no request of this tool',
      );
    }
    const use = await this.states.use(state, agent.agent.agentId, input.data);
    if (!use.ok) throw new McpError(ErrorCode.InvalidParams, `requestState refused: ${use.problem}`);
    const view = await this.calls.mustCallOf(agent, use.claims.callId);
    const task = await this.tasks.mustFind(agent, view.id);
    await recordAnswer(task, params['inputResponses'], 'tools/call inputResponses');
    return this.answer(await this.stateOf(view, caller.consoleUrl), agent, params, caller.consoleUrl);
  }

  /** Still waiting for a person: asked again; otherwise the call as it stands (its verdict, or its state). */
  private async stateOf(view: CallView, consoleUrl: string): Promise<ToolAnswer> {
    if (view.approval && view.verdict === null && view.approval.state === 'pending') {
      return { kind: 'needs_person', callId: view.id, approvalId: view.approval.id };
    }
    return { kind: 'result', result: await this.calls.result(view, consoleUrl) };
  }

  private async answer(
    answer: ToolAnswer,
    agent: AgentCaller,
    params: Record<string, unknown>,
    consoleUrl = agent.consoleUrl,
  ): Promise<Record<string, unknown>> {
    switch (answer.kind) {
      case 'result':
        return { ...answer.result, resultType: 'complete' };
      case 'task': {
        const task = await this.tasks.mustFind(agent, answer.taskId);
        if (isTerminal(task.task.status)) return { ...(await task.result()), resultType: 'complete' };
        return { resultType: 'task', task: await modernTask(task) };
      }
      case 'needs_person': {
        const view = await this.calls.mustCallOf(agent, answer.callId);
        const input = callToolInput.parse(params['arguments'] ?? {});
        const elicitation = this.calls.elicitation(view, consoleUrl)!;
        return {
          resultType: 'input_required',
          inputRequests: {
            [INPUT_KEY]: { method: 'elicitation/create', params: urlElicitation(elicitation) },
          },
          requestState: this.states.mint(view.id, agent.agent.agentId, input),
          _meta: { callId: view.id, approval: elicitation.url },
        };
      }
    }
  }
}

/** The extension's Task: the status, the page while a person must act, the result or error once finished. */
async function modernTask(agentTask: AgentTask): Promise<Record<string, unknown>> {
  const { task, elicitation } = agentTask;
  const base = {
    taskId: task.taskId,
    status: task.status,
    statusMessage: task.statusMessage,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: null,
    pollIntervalMs: TASK_POLL_MS,
  };
  if (task.status === 'input_required' && elicitation) {
    return {
      ...base,
      inputRequests: { [INPUT_KEY]: { method: 'elicitation/create', params: urlElicitation(elicitation) } },
    };
  }
  if (task.status === 'completed') return { ...base, result: await agentTask.result() };
  if (task.status === 'failed') {
    const result: CallToolResult = await agentTask.result();
    return { ...base, error: { code: -32000, message: task.statusMessage ?? 'failed', data: result } };
  }
  return base;
}

/** The client's answer to the page, if it gave one: the requester's own confirmation, recorded. */
async function recordAnswer(task: AgentTask, responses: unknown, via: string): Promise<void> {
  const response = (responses as Record<string, { action?: unknown } | undefined> | undefined)?.[INPUT_KEY];
  const action = typeof response?.action === 'string' ? response.action : undefined;
  if (action) await task.confirm(action, via);
}

function urlElicitation(e: { url: string; message: string; elicitationId: string }): Record<string, unknown> {
  // 2026-07-28 drops elicitationId (the retry's requestState says which request it continues).
  return { mode: 'url', url: e.url, message: e.message };
}

function stringParam(params: Record<string, unknown>, name: string): string {
  const value = params[name];
  if (typeof value !== 'string')
    throw new McpError(ErrorCode.InvalidParams, `params.${name}: a string is required`);
  return value;
}

function toolExtra(request: ModernEnvelope, caller: RequestCaller, signal: AbortSignal): ToolExtra {
  const extra = {
    signal,
    requestId: request.id ?? 0,
    _meta: request.params['_meta'],
    authInfo: {
      token: 'redacted',
      clientId: caller.actor.operatorId,
      scopes: [caller.actor.role],
      extra: { caller },
    },
    // A JSON answer carries no notifications: progress and log messages are for legacy streams.
    sendNotification: () => Promise.resolve(),
    sendRequest: () =>
      Promise.reject(new McpError(ErrorCode.InvalidRequest, 'MCP 2026-07-28 sends no server requests')),
  };
  return extra as unknown as ToolExtra;
}

function rpcError(
  status: number,
  id: string | number | null | undefined,
  code: number,
  message: string,
  data?: unknown,
): ModernAnswer {
  return {
    status,
    body: {
      jsonrpc: '2.0',
      id: id ?? null,
      error: { code, message, ...(data !== undefined ? { data } : {}) },
    },
  };
}
