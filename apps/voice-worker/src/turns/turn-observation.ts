import type { VoiceMetrics } from '../voice-worker-metrics';
import { isAnswerTool } from './reply-wording';
import type { ToolCallRecord } from './tool-call-record';
import type { TurnTimingsJson } from './turn-timings';

/** `answered` without an action, else the verdict of the last action the model asked for. */
export function turnOutcome(records: readonly ToolCallRecord[]): string {
  const actions = records.filter((r) => !isAnswerTool(r.tool));
  return actions.at(-1)?.verdict ?? 'answered';
}

/** Stage durations into the histograms (each stage's own time, derived from the marks since the origin). */
export function observeTurn(
  metrics: VoiceMetrics,
  labels: { outcome: string; source: string; mode: string },
  t: TurnTimingsJson,
): void {
  metrics.turns.inc(labels);
  const observe = (stage: string, ms: number | undefined) => {
    if (ms !== undefined && ms >= 0) metrics.stageSeconds.observe({ stage }, ms / 1000);
  };
  observe('speech_end', t.speechEndMs);
  observe('asr', t.asrMs);
  observe('llm_first_token', t.llmRounds?.[0]?.firstTokenMs);
  for (const trip of t.toolRoundTrips ?? []) observe('tool_round_trip', trip.ms);
  if (t.firstTtsAudioMs !== undefined && t.replyReadyMs !== undefined) {
    observe('first_tts_audio', t.firstTtsAudioMs - t.replyReadyMs);
  }
  observe('turn', t.replySentMs);
}
