import type { Language } from '../../language';

/** One AI-visible device tool in function-calling form; `tool` is the device's own name (never sent). */
export interface ToolSpec {
  /** The function name the model sees (`^[a-zA-Z0-9_-]{1,64}$`, see function-names.ts). */
  name: string;
  tool: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** An OpenAI-style tool call, exactly as the model produced it (arguments is JSON text). */
export interface LlmToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: LlmToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface LlmRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  language: Language;
  signal?: AbortSignal;
}

export interface LlmReply {
  text: string;
  toolCalls: LlmToolCall[];
  /** From the request to the first token (content or tool call) of the answer. */
  firstTokenMs: number;
}

/** Chat completion with tool calling: an OpenAI-compatible server, or the offline intent engine. */
export interface LlmProvider {
  readonly name: string;
  complete(request: LlmRequest): Promise<LlmReply>;
}
