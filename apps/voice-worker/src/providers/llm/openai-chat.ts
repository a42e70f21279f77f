import { authHeaders, deadline, endpointUrl, failure, type OpenAiEndpoint } from '../http-json';
import { CompletionAccumulator } from './completion-accumulator';
import type { LlmProvider, LlmReply, LlmRequest } from './llm-provider';
import { sseData } from './sse-lines';

/**
 * Any OpenAI-compatible chat completions API with tool calling (OpenAI, Ollama, vLLM, DeepSeek, Qwen...). The
 * answer is streamed so the first token's time is known; a server that answers with plain JSON works too.
 */
export class OpenAiChat implements LlmProvider {
  readonly name = 'openai';

  constructor(private readonly endpoint: OpenAiEndpoint) {}

  async complete(request: LlmRequest): Promise<LlmReply> {
    const started = performance.now();
    const response = await fetch(endpointUrl(this.endpoint.url, 'chat/completions'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders(this.endpoint.apiKey) },
      body: JSON.stringify({
        model: this.endpoint.model,
        messages: request.messages,
        ...(request.tools.length > 0
          ? {
              tools: request.tools.map((t) => ({
                type: 'function',
                function: { name: t.name, description: t.description, parameters: t.parameters },
              })),
              tool_choice: 'auto',
            }
          : {}),
        stream: true,
      }),
      signal: deadline(this.endpoint.timeoutMs, request.signal),
    });
    if (!response.ok) throw await failure('the LLM', response);
    const answer = new CompletionAccumulator();
    let firstTokenMs: number | undefined;
    const streamed = response.headers.get('content-type')?.includes('text/event-stream') ?? false;
    if (streamed && response.body) {
      for await (const data of sseData(response.body)) {
        answer.add(JSON.parse(data));
        if (firstTokenMs === undefined && answer.started) firstTokenMs = performance.now() - started;
      }
    } else {
      answer.add(await response.json());
    }
    firstTokenMs ??= performance.now() - started;
    return { ...answer.result(), firstTokenMs: Math.round(firstTokenMs) };
  }
}
