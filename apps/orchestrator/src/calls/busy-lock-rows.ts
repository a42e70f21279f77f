import { busyLockRecord, busyLockRule, describeWait, type BusyLockOutcome } from '@fleet/domain';
import type { Decision } from './call-decision';
import type { CallRecord } from './call-record';
import type { Conclusion } from './call-writes';
import { concludeNotSent } from '../verification/conclude';
import { decisionRow } from './evidence-builders';

type SendDecision = Extract<Decision, { kind: 'send' }>;
type Settled = Exclude<BusyLockOutcome, { kind: 'hold' }>;

/** The lock's rule, with what it waited and who overrode it, joins the rules the decision row cites. */
export function withBusyLock(decision: SendDecision, outcome: Settled): SendDecision {
  return { ...decision, rules: [...decision.rules, lockRule(outcome)] };
}

/** A conversation that outlasted the call's deadline: never sent (DESIGN §1 `undelivered`). */
export function heldPastDeadline(
  call: CallRecord,
  decision: SendDecision,
  outcome: Extract<BusyLockOutcome, { kind: 'deadline_passed' }>,
): Conclusion {
  const rule = lockRule(outcome);
  const reason = `the device stayed in a conversation until the deadline (${describeWait(outcome.waitedMs)})`;
  return concludeNotSent('device_unreachable', reason, {
    discovery: decision.rows.discovery,
    decision: decisionRow(call, 'undelivered', [...decision.rules, rule], {
      reason,
      ...(decision.approval ? { approval: decision.approval } : {}),
    }),
    parameters: decision.rows.parameters,
  });
}

function lockRule(outcome: Settled) {
  return { ...busyLockRule(outcome), lock: busyLockRecord(outcome) };
}
