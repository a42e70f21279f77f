import type { LlmToolCall } from './llm-provider';

interface DeltaToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface Choice {
  delta?: { content?: string | null; tool_calls?: DeltaToolCall[] };
  message?: { content?: string | null; tool_calls?: LlmToolCall[] };
}

/**
 * Builds one assistant answer from streamed chunks (content pieces; tool calls whose name and arguments arrive in
 * pieces keyed by index) or from a whole non-streamed `message`.
 */
export class CompletionAccumulator {
  private text = '';
  private readonly calls = new Map<number, LlmToolCall>();

  get started(): boolean {
    return this.text.length > 0 || this.calls.size > 0;
  }

  add(chunk: unknown): void {
    const choice = (chunk as { choices?: Choice[] }).choices?.[0];
    if (!choice) return;
    if (choice.message) {
      this.text += choice.message.content ?? '';
      (choice.message.tool_calls ?? []).forEach((call, index) => this.calls.set(index, call));
      return;
    }
    this.text += choice.delta?.content ?? '';
    for (const [position, delta] of (choice.delta?.tool_calls ?? []).entries()) {
      const index = delta.index ?? position;
      const call = this.calls.get(index) ?? {
        id: '',
        type: 'function' as const,
        function: { name: '', arguments: '' },
      };
      if (delta.id) call.id = delta.id;
      call.function.name += delta.function?.name ?? '';
      call.function.arguments += delta.function?.arguments ?? '';
      this.calls.set(index, call);
    }
  }

  result(): { text: string; toolCalls: LlmToolCall[] } {
    const toolCalls = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }));
    return { text: this.text.trim(), toolCalls };
  }
}
