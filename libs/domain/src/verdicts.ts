// DESIGN §1: the only verdicts; a finished call has exactly one.
export const VERDICTS = [
  'verified',
  'acknowledged',
  'effect_mismatch',
  'device_error',
  'no_response',
  'undelivered',
  'rejected',
  'invalid_arguments',
  'expired',
  'cancelled',
] as const;
export type Verdict = (typeof VERDICTS)[number];

/** What each verdict lets a person conclude, in words an operator or auditor reads. */
export const VERDICT_MEANING: Record<Verdict, string> = {
  verified: 'the effect was observed',
  acknowledged: 'the device reported success; the effect cannot be checked by any means the platform has',
  effect_mismatch: 'the device reported success but the observation contradicts it',
  device_error: 'the device reported an error',
  no_response: 'sent, but no reply in time and no observation that settles it',
  undelivered: 'never sent: the device was not reachable before the deadline',
  rejected: 'refused before sending, by policy or by the approving person',
  invalid_arguments: "refused before sending: the arguments do not fit the device's own schema",
  expired: 'approval never came in time',
  cancelled: 'cancelled by an operator before it was sent',
};

/** Verdicts reached without anything leaving for the device. */
export const NOT_SENT_VERDICTS: ReadonlySet<Verdict> = new Set([
  'undelivered',
  'rejected',
  'invalid_arguments',
  'expired',
  'cancelled',
]);
