import { lintProbes } from '../test/lint-probes';

// DESIGN §1: one owner of a call's state. Probes exist only while this test runs.
const OUTSIDE = [
  {
    why: 'raw SQL that updates a call outside the calls repository',
    path: 'apps/admin-api/src/__call-state-probe__.ts',
    source: "export const probe = `UPDATE call SET state = 'finished' WHERE id = $1`;\n",
  },
  {
    why: 'a Kysely update of the call table outside the calls repository',
    path: 'apps/orchestrator/src/calls/__call-state-probe__.ts',
    source:
      "import type { Database } from '@fleet/db';\nexport const probe = (db: Database) => db.updateTable('call').set({ state: 'sent' });\n",
  },
];
const INSIDE = {
  path: 'libs/db/src/repositories/calls/__call-state-probe__.ts',
  source: "export const probe = 'UPDATE call SET state = $2 WHERE id = $1';\n",
};

describe('the call-state lint rule', () => {
  it('flags call-state writes outside the calls repository and lets the repository write them', () => {
    const files = [...OUTSIDE, INSIDE];
    const messages = lintProbes(files);
    const flagged = (path: string) =>
      messages(path).some(
        (m) => m.ruleId === 'no-restricted-syntax' && m.message.includes('calls repository'),
      );
    for (const probe of OUTSIDE)
      expect({ probe: probe.why, flagged: flagged(probe.path) }).toEqual({
        probe: probe.why,
        flagged: true,
      });
    expect(flagged(INSIDE.path)).toBe(false);
  }, 120_000);
});
