import type { Probe } from '../lint-probes';

/** A file that exists only while the lint-rule spec runs, and whether its rule must refuse it. */
export interface RuleProbe extends Probe {
  why: string;
  flagged: boolean;
  /** What the refusal must say, where it matters (it tells where the code belongs). */
  says?: RegExp;
}

/** The probes of one lint rule: which rule id reports them and, where it matters, what its message says. */
export interface ProbeSet {
  rule: string;
  ruleId: string;
  message?: RegExp;
  probes: readonly RuleProbe[];
}
