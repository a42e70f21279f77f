import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../..');

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
    try {
      for (const probe of PROBES) writeFileSync(join(root, probe.path), probe.source);
      // The Nx rule reads the cached project graph; without it the rule silently does nothing.
      spawnSync('npx', ['nx', 'show', 'projects'], {
        cwd: root,
        env: { ...process.env, NX_DAEMON: 'false' },
      });
      const lint = spawnSync('npx', ['eslint', '--format', 'json', ...PROBES.map((p) => p.path)], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      });
      const results = JSON.parse(lint.stdout) as {
        filePath: string;
        messages: { ruleId: string | null; message: string }[];
      }[];
      for (const probe of PROBES) {
        const result = results.find((r) => r.filePath.endsWith(probe.path));
        const boundaryErrors =
          result?.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries') ?? [];
        expect({ probe: probe.why, flagged: boundaryErrors.length > 0 }).toEqual({
          probe: probe.why,
          flagged: true,
        });
      }
    } finally {
      for (const probe of PROBES) rmSync(join(root, probe.path), { force: true });
    }
  }, 120_000);
});
