/** How a supervised service is restarted after it dies: exponential, capped, forgiven once it ran healthy. */
export interface RestartPolicy {
  /** Wait before the first restart of a streak. */
  initialMs: number;
  /** The longest wait, however often it died. */
  maxMs: number;
  /** A service healthy this long before it died starts a new streak (the wait is `initialMs` again). */
  stableMs: number;
}

// As Kubernetes restarts a crashing container (10 s doubling to 5 min, reset after 10 min of running), shorter:
// one machine, a person watching the terminal.
export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialMs: 1_000, maxMs: 30_000, stableMs: 60_000 };

/**
 * Pure: how long to wait before the next start, given how many restarts the current streak has had and how
 * long the service was healthy before it died (0 when it never became healthy).
 */
export function nextRestart(
  policy: RestartPolicy,
  streak: number,
  healthyForMs: number,
): { delayMs: number; streak: number } {
  const current = healthyForMs >= policy.stableMs ? 0 : streak;
  return {
    delayMs: Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(current, 30)),
    streak: current + 1,
  };
}
