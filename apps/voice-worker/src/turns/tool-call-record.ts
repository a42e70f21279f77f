import type { Verdict } from '@fleet/domain';

/** What came of a call that did not reach a verdict: still open, never created, or unreadable arguments. */
export type NoVerdict = 'pending' | 'not_created' | 'invalid_json';

/** One tool call of the model, as stored in voice_turn.tool_calls: both names, the call and its verdict. */
export interface ToolCallRecord {
  round: number;
  /** The model's tool_call id. */
  id: string;
  /** The function name the model used. */
  function: string;
  /** The device tool it maps to (the name itself when the model made one up). */
  tool: string;
  arguments: unknown;
  callId?: string;
  verdict: Verdict | NoVerdict;
  reason?: string;
  result?: string;
  ms: number;
}
