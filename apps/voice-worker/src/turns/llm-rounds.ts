import type { Language } from '../language';
import type { ChatMessage, LlmProvider } from '../providers/llm/llm-provider';
import type { AiCatalog } from './ai-catalog';
import type { DeviceCalls } from './device-calls';
import { systemPrompt } from './system-prompt';
import { runToolCall } from './tool-call-step';
import type { ToolCallRecord } from './tool-call-record';
import type { TurnClock } from './turn-timings';

export interface RoundsInput {
  turnId: string;
  deviceId: string;
  transcript: string;
  utteranceHash: string;
  language: Language;
  catalog: AiCatalog;
  maxRounds: number;
  clock: TurnClock;
  signal?: AbortSignal;
  /** Told after each round, so the turn row shows the calls as they happen. */
  onCalls?: (records: readonly ToolCallRecord[]) => Promise<void>;
}

/**
 * The model's turn: ask, run the tool calls it wants through the orchestrator, give it the verdicts, and ask
 * again, until it answers in words or `maxRounds` run out (refusals go back so it can correct itself, but a
 * model that keeps trying is stopped).
 */
export async function runLlmRounds(
  llm: LlmProvider,
  calls: DeviceCalls,
  input: RoundsInput,
): Promise<{ text: string; records: ToolCallRecord[] }> {
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(input.language) },
    { role: 'user', content: input.transcript },
  ];
  const records: ToolCallRecord[] = [];
  for (let round = 1; round <= input.maxRounds; round++) {
    const asked = performance.now();
    const askedAt = input.clock.sinceOrigin();
    const reply = await llm.complete({
      messages,
      tools: input.catalog.specs,
      language: input.language,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    if (round === 1) input.clock.mark('llmFirstTokenMs', askedAt + reply.firstTokenMs);
    input.clock.llmRound(round, reply.firstTokenMs, Math.round(performance.now() - asked));
    if (reply.toolCalls.length === 0) return { text: reply.text, records };
    messages.push({ role: 'assistant', content: reply.text || null, tool_calls: reply.toolCalls });
    for (const [index, toolCall] of reply.toolCalls.entries()) {
      const { record, content } = await runToolCall(calls, input.catalog, toolCall, {
        turnId: input.turnId,
        deviceId: input.deviceId,
        utteranceHash: input.utteranceHash,
        round,
        index,
        ...(input.signal ? { signal: input.signal } : {}),
      });
      records.push(record);
      input.clock.toolRoundTrip({
        tool: record.tool,
        ...(record.callId ? { callId: record.callId } : {}),
        verdict: record.verdict,
        ms: record.ms,
      });
      messages.push({ role: 'tool', tool_call_id: toolCall.id, content });
    }
    await input.onCalls?.(records);
  }
  return { text: '', records };
}
