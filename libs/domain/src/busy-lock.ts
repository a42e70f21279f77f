import type { z } from 'zod';
import type { policyRuleResultSchema } from './evidence-payloads';

// The busy lock (DESIGN §4): a reboot or an upgrade would cut a conversation off mid-sentence (xiaozhi §3.3: a
// reboot closes the audio channel first), so one that is ready to go while its device is in a voice session waits
// until the session ends, within the call's delivery deadline. A person may let it go anyway, with a reason.

/** What the lock knows when a disruptive call is ready to be sent. */
export interface BusyLockFacts {
  /** The device has an open voice session now (listening or speaking). */
  inConversation: boolean;
  now: Date;
  deadlineAt: Date;
  /** When this call began to wait for the conversation to end (absent: it never waited). */
  heldSince?: Date;
  override?: { by: string; reason: string; at: Date };
}

export type BusyLockOutcome =
  /** Send now; `waitedMs` when it waited for a conversation to end first. */
  | { kind: 'free'; waitedMs?: number; heldSince?: Date }
  /** Keep waiting: the conversation goes on and the deadline has not come. */
  | { kind: 'hold' }
  /** The deadline came while the conversation went on: never sent. */
  | { kind: 'deadline_passed'; waitedMs: number }
  /** A person chose to send it during the conversation. */
  | {
      kind: 'overridden';
      by: string;
      reason: string;
      at: Date;
      waitedMs?: number;
    };

export function busyLockOutcome(f: BusyLockFacts): BusyLockOutcome {
  const waited = f.heldSince ? Math.max(0, f.now.getTime() - f.heldSince.getTime()) : undefined;
  const pastDeadline = f.now.getTime() > f.deadlineAt.getTime();
  // A held call is sent within its deadline or never (a conversation that ended just after it is too late).
  if (pastDeadline && (f.inConversation || waited !== undefined))
    return { kind: 'deadline_passed', waitedMs: waited ?? 0 };
  if (!f.inConversation) {
    return waited === undefined
      ? { kind: 'free' }
      : { kind: 'free', waitedMs: waited, heldSince: f.heldSince! };
  }
  if (f.override)
    return { kind: 'overridden', ...f.override, ...(waited === undefined ? {} : { waitedMs: waited }) };
  return { kind: 'hold' };
}

/** "waited 14 s for the conversation to end" (whole seconds, as people say it; under one second: "< 1 s"). */
export function describeWait(waitedMs: number): string {
  const seconds = Math.round(waitedMs / 1000);
  return `waited ${seconds < 1 ? '< 1' : seconds} s for the conversation to end`;
}

type RuleResult = z.infer<typeof policyRuleResultSchema>;

export const BUSY_LOCK_RULE = 'busy lock';

/** The decision row's entry for the lock (only disruptive calls have one). */
export function busyLockRule(outcome: Exclude<BusyLockOutcome, { kind: 'hold' }>): RuleResult {
  switch (outcome.kind) {
    case 'free':
      return {
        rule: BUSY_LOCK_RULE,
        result: 'passed',
        detail:
          outcome.waitedMs === undefined
            ? 'the device was not in a conversation'
            : describeWait(outcome.waitedMs),
      };
    case 'overridden':
      return {
        rule: BUSY_LOCK_RULE,
        result: 'approved',
        detail: `sent during a conversation: overridden by ${outcome.by} (${outcome.reason})`,
      };
    case 'deadline_passed':
      return {
        rule: BUSY_LOCK_RULE,
        result: 'refused',
        detail: `the conversation went on past the deadline (${describeWait(outcome.waitedMs)})`,
      };
  }
}

/** What the decision row keeps of the lock besides its rule: the wait, and who overrode it. */
export function busyLockRecord(outcome: Exclude<BusyLockOutcome, { kind: 'hold' }>): Record<string, unknown> {
  switch (outcome.kind) {
    case 'free':
      return outcome.waitedMs === undefined
        ? { state: 'idle' }
        : { state: 'waited', waitedMs: outcome.waitedMs, heldSince: outcome.heldSince!.toISOString() };
    case 'overridden':
      return {
        state: 'overridden',
        overriddenBy: outcome.by,
        reason: outcome.reason,
        at: outcome.at.toISOString(),
        ...(outcome.waitedMs === undefined ? {} : { waitedMs: outcome.waitedMs }),
      };
    case 'deadline_passed':
      return { state: 'deadline_passed', waitedMs: outcome.waitedMs };
  }
}
