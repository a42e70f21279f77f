import { lintProbes } from '../test/lint-probes';

// Each probe is a file that breaks one boundary of STYLE.md §6. They exist only while this test runs.
const PROBES = [
  {
    why: 'the protocol lib depends on nothing with I/O',
    path: 'libs/protocol/src/__boundary-probe__.ts',
    source: "import { createPgPool } from '@fleet/db';\nexport const probe = createPgPool;\n",
  },
  {
    why: 'a util lib may not reach a data-access lib',
    path: 'libs/config/src/__boundary-probe__.ts',
    source: "import { createRedis } from '@fleet/queues';\nexport const probe = createRedis;\n",
  },
  {
    why: 'an app may not import another app',
    path: 'apps/broker/src/__boundary-probe__.ts',
    source:
      "import { startOrchestrator } from '../../orchestrator/src/orchestrator-app';\nexport const probe = startOrchestrator;\n",
  },
  {
    why: 'an app may not import another app through its index either (only tools/e2e may)',
    path: 'apps/admin-api/src/__boundary-probe__.ts',
    source:
      "import { startOrchestrator } from '@fleet/orchestrator';\nexport const probe = startOrchestrator;\n",
  },
  {
    why: "an app's production code may not use the simulator",
    path: 'apps/orchestrator/src/__boundary-probe__.ts',
    source: "import * as sim from '@fleet/device-sim';\nexport const probe = sim;\n",
  },
];

describe('module boundaries', () => {
  it('are enforced by lint', () => {
    const messages = lintProbes(PROBES);
    for (const probe of PROBES) {
      const boundaryErrors = messages(probe.path).filter((m) => m.ruleId === '@nx/enforce-module-boundaries');
      expect({ probe: probe.why, flagged: boundaryErrors.length > 0 }).toEqual({
        probe: probe.why,
        flagged: true,
      });
    }
  }, 120_000);
});
