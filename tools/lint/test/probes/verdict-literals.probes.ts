import type { ProbeSet } from './probe-set';

// DESIGN §1: a verdict is born in one place.
export const VERDICT_LITERALS: ProbeSet = {
  rule: 'the verdict-literals rule',
  ruleId: 'no-restricted-syntax',
  message: /verdict table/,
  probes: [
    {
      why: 'a conclusion naming its verdict in the call pipeline',
      path: 'apps/orchestrator/src/calls/__verdict-probe__.ts',
      source: "export const probe = { verdict: 'rejected', reason: 'no' };\n",
      flagged: true,
    },
    {
      why: 'a verdict assigned outside verification/',
      path: 'apps/orchestrator/src/campaigns/__verdict-probe__.ts',
      source: "export const probe = (c: { verdict: string }) => {\n  c.verdict = 'verified';\n};\n",
      flagged: true,
    },
    {
      why: 'verification/ names one',
      path: 'apps/orchestrator/src/verification/__verdict-probe__.ts',
      source: "export const probe = { verdict: 'rejected', reason: 'no' };\n",
      flagged: false,
    },
  ],
};
