/** Reconnect delays: `initialMs`, multiplied by `factor` after each failure, capped at `maxMs`, ± `jitter`. */
export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly factor: number;
  /** 0..1: each delay is spread uniformly over ±jitter of itself, so a fleet does not reconnect in lockstep. */
  readonly jitter: number;
}

/** esp-mqtt's own auto-reconnect: a fixed 10 s (`reconnect_timeout_ms` default), no jitter. */
export const ESP_MQTT_RECONNECT: BackoffPolicy = { initialMs: 10_000, maxMs: 10_000, factor: 1, jitter: 0 };

export function backoffDelay(
  policy: BackoffPolicy,
  failures: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, failures));
  const spread = base * policy.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(base + spread));
}
