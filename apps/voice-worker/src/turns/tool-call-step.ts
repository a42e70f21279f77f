import type { LlmToolCall } from '../providers/llm/llm-provider';
import { toolResultContent } from '../providers/llm/tool-result';
import type { AiCatalog } from './ai-catalog';
import type { CallOutcome, DeviceCalls } from './device-calls';
import type { ToolCallRecord } from './tool-call-record';

export interface StepContext {
  turnId: string;
  deviceId: string;
  utteranceHash: string;
  round: number;
  index: number;
  signal?: AbortSignal;
}

/**
 * One tool call of the model: its function name mapped back to the device tool, the call run through the
 * orchestrator, and the outcome as the record to store and the tool message the model reads next round.
 */
export async function runToolCall(
  calls: DeviceCalls,
  catalog: AiCatalog,
  toolCall: LlmToolCall,
  ctx: StepContext,
): Promise<{ record: ToolCallRecord; content: string }> {
  const started = performance.now();
  const fn = toolCall.function.name;
  // A made-up name goes to the orchestrator as it is: it is refused there, with evidence of the attempt.
  const tool = catalog.names.toolOf(fn) ?? fn;
  const base = { round: ctx.round, id: toolCall.id, function: fn, tool };
  const args = parseArguments(toolCall.function.arguments);
  if (!args) {
    const reason = 'the arguments are not a JSON object';
    return {
      record: { ...base, arguments: toolCall.function.arguments, verdict: 'invalid_json', reason, ms: 0 },
      content: toolResultContent({ verdict: 'invalid_arguments', ok: false, error: reason }),
    };
  }
  const outcome = await calls.run({
    turnId: ctx.turnId,
    deviceId: ctx.deviceId,
    tool,
    arguments: args,
    toolCall: { ...toolCall, tool },
    utteranceHash: ctx.utteranceHash,
    idempotencyKey: `voice-turn:${ctx.turnId}:${ctx.round}:${ctx.index}`,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  const ms = Math.round(performance.now() - started);
  return { record: { ...base, arguments: args, ...recordOf(outcome), ms }, content: contentOf(outcome) };
}

function recordOf(outcome: CallOutcome): Pick<ToolCallRecord, 'callId' | 'verdict' | 'reason' | 'result'> {
  switch (outcome.kind) {
    case 'sealed':
      return {
        callId: outcome.callId,
        verdict: outcome.verdict,
        ...(outcome.reason ? { reason: outcome.reason } : {}),
        ...(outcome.result !== undefined ? { result: outcome.result } : {}),
      };
    case 'pending':
      return { callId: outcome.callId, verdict: 'pending' };
    case 'not_created':
      return { verdict: 'not_created', reason: outcome.reason };
  }
}

function contentOf(outcome: CallOutcome): string {
  switch (outcome.kind) {
    case 'sealed': {
      const ok = outcome.verdict === 'verified' || outcome.verdict === 'acknowledged';
      return toolResultContent({
        verdict: outcome.verdict,
        ok,
        ...(outcome.result !== undefined ? { result: outcome.result } : {}),
        ...(!ok ? { error: outcome.reason ?? outcome.result ?? outcome.verdict } : {}),
      });
    }
    case 'pending':
      return toolResultContent({ verdict: 'pending', ok: false, error: 'no verdict yet' });
    case 'not_created':
      return toolResultContent({ verdict: 'not_created', ok: false, error: outcome.reason });
  }
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
