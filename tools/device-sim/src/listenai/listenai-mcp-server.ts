import { randomBytes } from 'node:crypto';
import type { McpOutcome, McpRequest } from '@fleet/protocol';
import type { ListenAiState, ListenAiTool } from './listenai-tools';

export interface ListenAiServerInfo {
  name: string;
  version: string;
  instructions: string;
}

export interface ListenAiReply {
  id: string;
  method: string;
  outcome: McpOutcome;
}

/**
 * The device side of seed 002's MCP exchange: initialize with instructions, tools/list in pages with opaque
 * cursors (tokens that mean something only to this device, valid for one link), tools/call with failures as
 * `isError:true` and a text (unknown tool, arguments that fail the schema, an exception in the tool).
 */
export class ListenAiMcpServer {
  private readonly cursors = new Map<string, number>();

  constructor(
    private readonly tools: readonly ListenAiTool[],
    private readonly pageSize: number,
    private readonly info: ListenAiServerInfo,
  ) {}

  /** A new link: cursors handed out on the old one mean nothing any more. */
  reset(): void {
    this.cursors.clear();
  }

  handle(request: McpRequest, state: ListenAiState, lie: boolean): ListenAiReply {
    const id = String(request.id);
    const reply = (outcome: McpOutcome): ListenAiReply => ({ id, method: request.method, outcome });
    const params = request.params ?? {};
    switch (request.method) {
      case 'initialize':
        return reply({
          kind: 'result',
          result: {
            capabilities: { tools: {} },
            serverInfo: { name: this.info.name, version: this.info.version },
            instructions: this.info.instructions,
          },
        });
      case 'tools/list': {
        const cursor = typeof params['cursor'] === 'string' ? params['cursor'] : '';
        const offset = cursor === '' ? 0 : this.cursors.get(cursor);
        if (offset === undefined) return reply({ kind: 'error', error: { message: 'invalid cursor' } });
        const page = this.tools.slice(offset, offset + this.pageSize);
        const next = offset + page.length;
        const result: Record<string, unknown> = {
          tools: page.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
        };
        if (next < this.tools.length) {
          const token = `page_${randomBytes(6).toString('hex')}`;
          this.cursors.set(token, next);
          result['nextCursor'] = token;
        }
        return reply({ kind: 'result', result });
      }
      case 'tools/call':
        return reply({ kind: 'result', result: this.call(params, state, lie) });
      default:
        return reply({ kind: 'error', error: { message: `method not found: ${request.method}` } });
    }
  }

  private call(params: Record<string, unknown>, state: ListenAiState, lie: boolean) {
    const name = params['name'];
    const tool = this.tools.find((t) => t.name === name);
    const failure = (text: string) => ({ content: [{ type: 'text', text }], isError: true });
    if (!tool) return failure(`工具不存在: ${String(name)}`);
    const args = params['arguments'] ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return failure('参数验证失败: arguments 必须是对象');
    }
    if (lie && tool.changesState) return { content: [{ type: 'text', text: '操作成功' }], isError: false };
    try {
      return tool.run(args as Record<string, unknown>, state);
    } catch (err) {
      return failure(`工具执行异常: ${(err as Error).message}`);
    }
  }
}
