import type { Language } from '../language';
import type { ToolCallRecord } from './tool-call-record';
import { sentenceFor } from './verdict-sentences';

export interface ReplyText {
  text: string;
  /** xiaozhi §2.2 `llm` emotion shown with the reply. */
  emotion: 'happy' | 'sad' | 'neutral' | 'thinking';
}

/** A getter (or the photo tool) answers with content: its reply is the effect (DESIGN §5). */
export function isAnswerTool(tool: string): boolean {
  const last = tool.split('.').at(-1) ?? '';
  return last.startsWith('get_') || tool === 'self.camera.take_photo';
}

/**
 * DESIGN §1: what the assistant says follows the verdicts, not the model's words. For each tool the model used,
 * its last call counts (a refused value the model corrected is reported as corrected). Actions are worded from
 * their verdicts ("the volume is now 40" only when verified); answers to questions, when their reads succeeded,
 * are the model's own words.
 */
export function replyFor(language: Language, calls: readonly ToolCallRecord[], modelText: string): ReplyText {
  const lastPerTool = new Map<string, ToolCallRecord>();
  for (const call of calls) {
    lastPerTool.delete(call.tool); // keep the order in which tools were last used
    lastPerTool.set(call.tool, call);
  }
  const finals = [...lastPerTool.values()];
  const worded = finals.filter(
    (c) => !isAnswerTool(c.tool) || !(c.verdict === 'verified' || c.verdict === 'acknowledged'),
  );
  const fallback = language === 'zh' ? '好的。' : 'OK.';
  if (worded.length === 0) {
    return { text: modelText.trim() || fallback, emotion: finals.length > 0 ? 'happy' : 'neutral' };
  }
  const sentences = [...new Set(worded.map((c) => sentenceFor(language, c)))];
  const failed = worded.some((c) => c.verdict !== 'verified' && c.verdict !== 'acknowledged');
  const allVerified = worded.every((c) => c.verdict === 'verified');
  return {
    text: sentences.join(language === 'zh' ? '' : ' '),
    emotion: failed ? 'sad' : allVerified ? 'happy' : 'neutral',
  };
}
