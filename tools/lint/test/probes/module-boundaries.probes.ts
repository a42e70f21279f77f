import type { ProbeSet } from './probe-set';

// Each probe breaks one boundary of STYLE.md §6.
export const MODULE_BOUNDARIES: ProbeSet = {
  rule: 'module boundaries',
  ruleId: '@nx/enforce-module-boundaries',
  probes: [
    {
      why: 'the protocol lib depends on nothing with I/O',
      path: 'libs/protocol/src/__boundary-probe__.ts',
      source: "import { createPgPool } from '@fleet/db';\nexport const probe = createPgPool;\n",
      flagged: true,
    },
    {
      why: 'a util lib may not reach a data-access lib',
      path: 'libs/config/src/__boundary-probe__.ts',
      source: "import { createRedis } from '@fleet/queues';\nexport const probe = createRedis;\n",
      flagged: true,
    },
    {
      why: 'an app may not import another app',
      path: 'apps/broker/src/__boundary-probe__.ts',
      source:
        "import { startOrchestrator } from '../../orchestrator/src/orchestrator-app';\nexport const probe = startOrchestrator;\n",
      flagged: true,
    },
    {
      why: 'an app may not import another app through its index either (only tools/e2e may)',
      path: 'apps/admin-api/src/__boundary-probe__.ts',
      source:
        "import { startOrchestrator } from '@fleet/orchestrator';\nexport const probe = startOrchestrator;\n",
      flagged: true,
    },
    {
      why: "an app's production code may not use the simulator",
      path: 'apps/orchestrator/src/__boundary-probe__.ts',
      source: "import * as sim from '@fleet/device-sim';\nexport const probe = sim;\n",
      flagged: true,
    },
  ],
};
