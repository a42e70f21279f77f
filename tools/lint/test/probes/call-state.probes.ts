import type { ProbeSet } from './probe-set';

// DESIGN §1: one owner of a call's state.
export const CALL_STATE_WRITES: ProbeSet = {
  rule: 'the call-state rule',
  ruleId: 'no-restricted-syntax',
  message: /calls repository/,
  probes: [
    {
      why: 'raw SQL that updates a call outside the calls repository',
      path: 'apps/admin-api/src/__call-state-probe__.ts',
      source: "export const probe = `UPDATE call SET state = 'finished' WHERE id = $1`;\n",
      flagged: true,
    },
    {
      why: 'a Kysely update of the call table outside the calls repository',
      path: 'apps/orchestrator/src/calls/__call-state-probe__.ts',
      source:
        "import type { Database } from '@fleet/db';\nexport const probe = (db: Database) => db.updateTable('call').set({ state: 'sent' });\n",
      flagged: true,
    },
    {
      why: 'the calls repository writes them',
      path: 'libs/db/src/repositories/calls/__call-state-probe__.ts',
      source: "export const probe = 'UPDATE call SET state = $2 WHERE id = $1';\n",
      flagged: false,
    },
  ],
};
