import fc from 'fast-check';
import { DEFAULT_RESTART_POLICY, nextRestart } from './restart-backoff';

describe('restart backoff', () => {
  const policy = { initialMs: 1_000, maxMs: 30_000, stableMs: 60_000 };

  it('doubles the wait with each restart of a streak, up to the cap', () => {
    const delays: number[] = [];
    let streak = 0;
    for (let i = 0; i < 8; i++) {
      const next = nextRestart(policy, streak, 5_000);
      delays.push(next.delayMs);
      streak = next.streak;
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('starts a new streak once the service stayed healthy long enough', () => {
    expect(nextRestart(policy, 6, 59_999)).toEqual({ delayMs: 30_000, streak: 7 });
    expect(nextRestart(policy, 6, 60_000)).toEqual({ delayMs: 1_000, streak: 1 });
  });

  it('never waits less than the first wait nor more than the cap, however long the streak', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(120_000), (streak, healthyForMs) => {
        const { delayMs } = nextRestart(DEFAULT_RESTART_POLICY, streak, healthyForMs);
        return delayMs >= DEFAULT_RESTART_POLICY.initialMs && delayMs <= DEFAULT_RESTART_POLICY.maxMs;
      }),
    );
  });
});
