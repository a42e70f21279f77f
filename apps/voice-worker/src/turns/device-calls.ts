import type { Verdict } from '@fleet/domain';
import type { CallRequests } from '@fleet/platform-client';
import type { LlmToolCall } from '../providers/llm/llm-provider';
import type { VerdictWaiter } from './verdict-waiter';

export interface CallSettings {
  deliveryDeadlineMs: number;
  replyTimeoutMs: number;
  verdictTimeoutMs: number;
}

export interface CallAsk {
  turnId: string;
  deviceId: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** The model's exact tool_call, with the device tool it names (DESIGN §1: decision evidence). */
  toolCall: LlmToolCall & { tool: string };
  utteranceHash: string;
  idempotencyKey: string;
  signal?: AbortSignal;
}

export type CallOutcome =
  | {
      kind: 'sealed';
      callId: string;
      verdict: Verdict;
      reason: string | null;
      result?: string;
      isError?: boolean;
    }
  | { kind: 'pending'; callId: string }
  | { kind: 'not_created'; reason: string };

/**
 * A tool call of the voice assistant, through the orchestrator like any other (origin `llm`): policy, strict
 * arguments, ordering, sending, verification and the five evidence rows happen there. The utterance goes by its
 * sha256 only; its text stays in voice_transcript where retention can delete it.
 */
export class DeviceCalls {
  constructor(
    private readonly calls: CallRequests,
    private readonly verdicts: VerdictWaiter,
    private readonly settings: CallSettings,
  ) {}

  async run(ask: CallAsk): Promise<CallOutcome> {
    const created = await this.calls.request({
      deviceId: ask.deviceId,
      tool: ask.tool,
      arguments: ask.arguments,
      origin: 'llm',
      voiceTurnId: ask.turnId,
      reason: `the voice assistant chose ${ask.tool} for the user's request in voice turn ${ask.turnId}`,
      context: { llmToolCall: ask.toolCall, utteranceHash: ask.utteranceHash },
      idempotencyKey: ask.idempotencyKey,
      deliveryDeadlineMs: this.settings.deliveryDeadlineMs,
      replyTimeoutMs: this.settings.replyTimeoutMs,
    });
    if (!created.ok) return { kind: 'not_created', reason: created.message };
    const sealed = await this.verdicts.wait(created.callId, this.settings.verdictTimeoutMs, ask.signal);
    if (!sealed) return { kind: 'pending', callId: created.callId };
    return {
      kind: 'sealed',
      callId: created.callId,
      verdict: sealed.verdict,
      reason: sealed.verdictReason,
      ...(sealed.result?.text !== undefined ? { result: sealed.result.text } : {}),
      ...(sealed.result?.isError !== undefined ? { isError: sealed.result.isError } : {}),
    };
  }
}
