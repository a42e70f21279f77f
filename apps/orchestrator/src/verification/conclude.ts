import type { CallRecord } from '../calls/call-record';
import type { Conclusion, StageRows } from '../calls/call-writes';
import { decisionRow } from './evidence-rows';
import type { NotSentCause, Observation } from './observation';
import type { Recipe } from './recipes';
import { judge, type Judgement } from './verdict-table';

// The recipe a call that never left is judged with: the table reads only the cause then.
const NOT_SENT_RECIPE: Recipe = { kind: 'unverifiable' };

/**
 * A verdict is born here and only here (DESIGN §1): deciding, pre-flight, prerequisites and resuming say why a
 * call ends (a cause, or what was observed); this asks the verdict table and hands back the conclusion to seal.
 * Code outside verification/ never names a verdict (tools/lint/rules/verdict-literals.mjs).
 */
export function concludeNotSent(cause: NotSentCause, detail: string, rows: StageRows): Conclusion {
  const judged = judge(NOT_SENT_RECIPE, { sent: false, cause, detail })!;
  return { verdict: judged.verdict, reason: judged.reason, rows };
}

/** A sent call's judgement, or undefined while a reboot's or an upgrade's window is still open. */
export function judgeSent(
  recipe: Recipe,
  observation: Extract<Observation, { sent: true }>,
): Judgement | undefined {
  return judge(recipe, observation);
}

/** After a takeover the request may have gone out, and no reply was paired: what the table makes of that. */
export function concludeUnpaired(recipe: Recipe, reason: string, rows: StageRows): Conclusion {
  const judged = judge(recipe, { sent: true, reply: { kind: 'none', reason }, effect: { kind: 'none' } })!;
  return { verdict: judged.verdict, reason, rows };
}

/** A call a person cancelled before it was sent (its decision row says who, and why). */
export function concludeCancelled(call: CallRecord): Conclusion {
  const reason = `cancelled by ${call.cancelledBy}: ${call.cancelReason ?? 'no reason given'}`;
  return concludeNotSent('operator_cancelled', reason, {
    decision: decisionRow(call, 'cancelled', [], { reason }),
  });
}
