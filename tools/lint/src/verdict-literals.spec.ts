import { lintProbes } from '../test/lint-probes';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERDICTS } from '@fleet/domain';

const root = join(__dirname, '../../..');

// DESIGN §1: a verdict is born in one place. Probes exist only while this test runs.
const OUTSIDE = [
  {
    why: 'a conclusion naming its verdict in the call pipeline',
    path: 'apps/orchestrator/src/calls/__verdict-probe__.ts',
    source: "export const probe = { verdict: 'rejected', reason: 'no' };\n",
  },
  {
    why: 'a verdict assigned outside verification/',
    path: 'apps/orchestrator/src/campaigns/__verdict-probe__.ts',
    source: "export const probe = (c: { verdict: string }) => {\n  c.verdict = 'verified';\n};\n",
  },
];
const INSIDE = {
  path: 'apps/orchestrator/src/verification/__verdict-probe__.ts',
  source: "export const probe = { verdict: 'rejected', reason: 'no' };\n",
};

describe('the verdict-literals lint rule', () => {
  it('flags a verdict named outside the orchestrator verification/ and lets verification/ name one', () => {
    const files = [...OUTSIDE, INSIDE];
    const messages = lintProbes(files);
    const flagged = (path: string) =>
      messages(path).some((m) => m.ruleId === 'no-restricted-syntax' && m.message.includes('verdict table'));
    for (const probe of OUTSIDE)
      expect({ probe: probe.why, flagged: flagged(probe.path) }).toEqual({
        probe: probe.why,
        flagged: true,
      });
    expect(flagged(INSIDE.path)).toBe(false);
  }, 120_000);

  it('knows exactly the verdicts libs/domain knows', () => {
    // Jest cannot load the ES module itself: its list is read as the text it is.
    const text = readFileSync(join(root, 'tools/lint/rules/verdict-literals.mjs'), 'utf8');
    const list = /VERDICT_VALUES = \[([^\]]*)\]/.exec(text)![1]!;
    expect([...list.matchAll(/'([a-z_]+)'/g)].map((m) => m[1])).toEqual([...VERDICTS]);
  });
});
