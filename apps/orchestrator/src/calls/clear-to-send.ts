import { describeWait, type DecisionPayload } from '@fleet/domain';
import type { DeviceRuntime } from '../devices/device-runtime';
import { concludeNotSent } from '../verification/conclude';
import { busyLockDecisionRule, decisionRow } from '../verification/evidence-rows';
import type { BusyLock } from './busy-lock';
import type { Decision } from './call-decision';
import type { CallRecord } from './call-record';
import type { Conclusion } from './call-writes';
import { createPrerequisite, priorStateOf, type PrerequisitePorts } from './prerequisites';

type SendDecision = Extract<Decision, { kind: 'send' }>;

export type ClearToSend =
  | { kind: 'hold' }
  | { kind: 'conclude'; conclusion: Conclusion }
  | { kind: 'send'; decision: SendDecision; priorState?: NonNullable<DecisionPayload['priorState']> };

/**
 * What stands between an allowed call and its request (DESIGN §4): the busy lock (a reboot or an upgrade waits
 * for the device's conversation to end, within its deadline) and the prerequisites ordering rules run first,
 * each a call of its own that `runInline` runs in this device's lane.
 */
export async function clearToSend(
  ports: PrerequisitePorts & { busyLock: Pick<BusyLock, 'check'> },
  call: CallRecord,
  device: DeviceRuntime,
  decision: SendDecision,
  runInline: (prerequisite: CallRecord) => Promise<void>,
): Promise<ClearToSend> {
  const lock = await ports.busyLock.check(call, decision.recipe);
  if (lock?.kind === 'hold') return { kind: 'hold' };
  if (lock?.kind === 'deadline_passed') {
    // A conversation that outlasted the call's deadline: never sent (DESIGN §1 `undelivered`).
    const reason = `the device stayed in a conversation until the deadline (${describeWait(lock.waitedMs)})`;
    const rules = [...decision.rules, busyLockDecisionRule(lock)];
    return {
      kind: 'conclude',
      conclusion: concludeNotSent('device_unreachable', reason, {
        discovery: decision.rows.discovery,
        decision: decisionRow(call, 'undelivered', rules, {
          reason,
          ...(decision.approval ? { approval: decision.approval } : {}),
        }),
        parameters: decision.rows.parameters,
      }),
    };
  }
  // The lock's rule, with what it waited and who overrode it, joins the rules the decision row cites.
  if (lock) decision = { ...decision, rules: [...decision.rules, busyLockDecisionRule(lock)] };
  let priorState;
  for (const need of decision.prerequisites) {
    const prerequisite = await createPrerequisite(ports, call, need);
    if (!prerequisite.verdict) await runInline(prerequisite);
    const fresh = device.fresh.get(need.rule.requires);
    if (prerequisite.verdict !== 'verified' || !fresh) {
      const reason = `the prerequisite ${need.rule.requires} ended ${prerequisite.verdict ?? 'unfinished'}`;
      return {
        kind: 'conclude',
        conclusion: concludeNotSent('policy', reason, {
          discovery: decision.rows.discovery,
          decision: decisionRow(call, 'rejected', decision.rules, { reason }),
        }),
      };
    }
    priorState = priorStateOf(prerequisite, fresh.result, new Date(fresh.at));
  }
  return { kind: 'send', decision, ...(priorState ? { priorState } : {}) };
}
