import type { z } from 'zod';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { roleAllows, type Role } from '@fleet/auth';
import type { McpSessionContext } from './mcp-session';
import type { ToolExtra } from './tool-results';

/** How the client that asks can be answered when a call has to wait (negotiated per request or per session). */
export interface WaitStyle {
  /** The protocol revision the request speaks. */
  revision: string;
  /** MCP 2025-11-25: the request asked for a task (`params.task`). */
  taskRequested: boolean;
  /** MCP 2026-07-28: the client takes the `io.modelcontextprotocol/tasks` extension; the server decides. */
  tasksOffered: boolean;
  /** The client declared URL-mode elicitation (2025-11-25 `elicitation.url`; 2026-07-28 as an input request). */
  urlElicitation: boolean;
}

export interface ToolContext {
  /** The SDK's handler extra (legacy sessions), or one the stateless endpoint makes for its request. */
  extra: ToolExtra;
  /** A legacy session (cancellation notices, log messages on the request's stream); none when stateless. */
  session?: McpSessionContext;
  wait: WaitStyle;
}

/** What a tool answers: a result, or a task (a call or campaign) the client is to follow, or a call a person must decide. */
export type ToolAnswer =
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'task'; taskId: string }
  | { kind: 'needs_person'; callId: string; approvalId: string };

export interface ToolDefinition<I extends z.ZodType> {
  title: string;
  description: string;
  inputSchema: I;
  outputSchema: z.ZodType;
  annotations: ToolAnnotations;
  execution?: Tool['execution'];
  /** Listed only to credentials of this role or above (a call by anyone else is refused by the tool itself). */
  listedFrom?: Role;
}

/** One of the fleet's MCP tools, served alike to legacy sessions and stateless requests. */
export interface FleetTool {
  name: string;
  listing: Tool;
  listedFrom?: Role;
  /** Validates the arguments (a refusal is a tool error the model reads), then runs. */
  run(args: unknown, ctx: ToolContext): Promise<ToolAnswer>;
}

export function fleetTool<I extends z.ZodType>(
  name: string,
  definition: ToolDefinition<I>,
  run: (input: z.output<I>, ctx: ToolContext) => Promise<ToolAnswer>,
): FleetTool {
  return {
    name,
    listing: {
      name,
      title: definition.title,
      description: definition.description,
      inputSchema: jsonSchema(definition.inputSchema, 'input'),
      outputSchema: jsonSchema(definition.outputSchema, 'output'),
      annotations: definition.annotations,
      ...(definition.execution ? { execution: definition.execution } : {}),
    },
    ...(definition.listedFrom ? { listedFrom: definition.listedFrom } : {}),
    async run(args, ctx) {
      const parsed = await definition.inputSchema.safeParseAsync(args ?? {});
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`);
        return {
          kind: 'result',
          result: {
            content: [{ type: 'text', text: `invalid arguments for ${name}: ${problems.join('; ')}` }],
            isError: true,
          },
        };
      }
      return run(parsed.data, ctx);
    },
  };
}

/** The tools by name, in the order tools/list gives them (by name: MCP 2026-07-28 asks for a stable order). */
export class FleetToolSet {
  private readonly byName: Map<string, FleetTool>;

  constructor(tools: readonly FleetTool[]) {
    this.byName = new Map([...tools].sort((a, b) => a.name.localeCompare(b.name)).map((t) => [t.name, t]));
  }

  /** What a credential of this role is shown: a tool it could never use is not offered to its model. */
  listings(role: Role): Tool[] {
    return [...this.byName.values()]
      .filter((t) => t.listedFrom === undefined || roleAllows(role, t.listedFrom))
      .map((t) => t.listing);
  }

  /** MCP: an unknown tool is a protocol error (-32602), not a tool result. */
  get(name: string): FleetTool {
    const tool = this.byName.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    return tool;
  }
}

function jsonSchema(schema: z.ZodType, pipeStrategy: 'input' | 'output'): Tool['inputSchema'] {
  return toJsonSchemaCompat(schema as never, { strictUnions: true, pipeStrategy }) as Tool['inputSchema'];
}
