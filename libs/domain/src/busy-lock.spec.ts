import {
  busyLockOutcome as decide,
  busyLockRecord,
  busyLockRule,
  describeWait,
  type BusyLockFacts,
  type BusyLockOutcome,
} from './busy-lock';

/** The outcome of a lock that settled (the rule and record exist only for those). */
function busyLockOutcome(facts: BusyLockFacts): Exclude<BusyLockOutcome, { kind: 'hold' }> {
  const outcome = decide(facts);
  if (outcome.kind === 'hold') throw new Error('the lock still holds');
  return outcome;
}

const now = new Date('2026-12-07T10:00:14Z');
const deadlineAt = new Date('2026-12-07T10:10:00Z');
const heldSince = new Date('2026-12-07T10:00:00Z');

describe('the busy lock', () => {
  it('lets a call go at once to a device that is not in a conversation, saying so', () => {
    const outcome = busyLockOutcome({ inConversation: false, now, deadlineAt });
    expect(outcome).toEqual({ kind: 'free' });
    expect(busyLockRule(outcome)).toMatchObject({
      result: 'passed',
      detail: 'the device was not in a conversation',
    });
  });

  it('holds a call while the device is in a conversation and the deadline is ahead', () => {
    expect(decide({ inConversation: true, now, deadlineAt, heldSince })).toEqual({ kind: 'hold' });
  });

  it('says how long a held call waited once the conversation ended', () => {
    const outcome = busyLockOutcome({ inConversation: false, now, deadlineAt, heldSince });
    expect(outcome).toEqual({ kind: 'free', waitedMs: 14_000, heldSince });
    expect(busyLockRule(outcome).detail).toBe('waited 14 s for the conversation to end');
    expect(busyLockRecord(outcome)).toEqual({
      state: 'waited',
      waitedMs: 14_000,
      heldSince: heldSince.toISOString(),
    });
  });

  it('gives up at the deadline while the conversation goes on', () => {
    const late = new Date(deadlineAt.getTime() + 1);
    const outcome = busyLockOutcome({ inConversation: true, now: late, deadlineAt, heldSince });
    expect(outcome).toMatchObject({ kind: 'deadline_passed' });
    expect(busyLockRule(outcome)).toMatchObject({ result: 'refused' });
  });

  it('gives up on a held call whose conversation ended only after the deadline', () => {
    const late = new Date(deadlineAt.getTime() + 1);
    expect(busyLockOutcome({ inConversation: false, now: late, deadlineAt, heldSince }).kind).toBe(
      'deadline_passed',
    );
  });

  it("lets a person's override through during a conversation, naming them and their reason", () => {
    const override = { by: 'op-1', reason: 'security fix', at: now };
    const outcome = busyLockOutcome({ inConversation: true, now, deadlineAt, heldSince, override });
    expect(outcome).toMatchObject({
      kind: 'overridden',
      by: 'op-1',
      reason: 'security fix',
      waitedMs: 14_000,
    });
    expect(busyLockRule(outcome)).toMatchObject({
      result: 'approved',
      detail: 'sent during a conversation: overridden by op-1 (security fix)',
    });
  });

  it('ignores an override once the conversation has ended (the call waited, nothing was overridden)', () => {
    const override = { by: 'op-1', reason: 'security fix', at: now };
    expect(busyLockOutcome({ inConversation: false, now, deadlineAt, heldSince, override }).kind).toBe(
      'free',
    );
  });

  it('rounds the wait to whole seconds and says "< 1 s" for a moment', () => {
    expect(describeWait(400)).toBe('waited < 1 s for the conversation to end');
    expect(describeWait(13_600)).toBe('waited 14 s for the conversation to end');
  });
});
