import { nextStep, type EngineHistory } from '../../intent/intent-engine';
import type { ChatMessage, LlmProvider, LlmReply, LlmRequest, LlmToolCall } from './llm-provider';
import { readToolResult } from './tool-result';

/**
 * The offline default LLM: the deterministic intent engine behind the same interface as a chat model, so a turn
 * runs the same rounds (tool call, verdict back, next call or words) whichever is configured.
 */
export class IntentLlm implements LlmProvider {
  readonly name = 'intent';

  complete(request: LlmRequest): Promise<LlmReply> {
    const started = performance.now();
    const utterance = lastUserText(request.messages);
    const history = historyOf(request.messages, request.tools);
    const step = nextStep(utterance, request.language, request.tools, history);
    const firstTokenMs = Math.round(performance.now() - started);
    if (step.kind === 'say') return Promise.resolve({ text: step.text, toolCalls: [], firstTokenMs });
    const fn = request.tools.find((t) => t.tool === step.tool)!.name;
    const toolCall: LlmToolCall = {
      id: `intent_${history.length + 1}`,
      type: 'function',
      function: { name: fn, arguments: JSON.stringify(step.arguments) },
    };
    return Promise.resolve({ text: '', toolCalls: [toolCall], firstTokenMs });
  }
}

function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user') return m.content;
  }
  return '';
}

function historyOf(messages: readonly ChatMessage[], tools: LlmRequest['tools']): EngineHistory[] {
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool') results.set(m.tool_call_id, m.content);
  const history: EngineHistory[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.tool_calls ?? []) {
      const content = results.get(c.id);
      history.push({
        tool: tools.find((t) => t.name === c.function.name)?.tool ?? c.function.name,
        arguments: parseArguments(c.function.arguments),
        result: content === undefined ? undefined : readToolResult(content),
      });
    }
  }
  return history;
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
