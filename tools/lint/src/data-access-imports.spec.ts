import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../..');

const QUERY = "import { Pool } from 'pg';\nexport const probe = (pool: Pool) => pool.query('SELECT 1');\n";

// STYLE §2, DESIGN §8: only repository and adapter files reach Postgres, Redis or MQTT. Probe files exist only
// while this test runs; `flagged` says whether lint must refuse them.
const PROBES = [
  {
    why: 'a service may not query Postgres',
    path: 'apps/admin-api/src/devices/__import-probe__.service.ts',
    source: QUERY,
    flagged: true,
  },
  {
    why: 'a repository may',
    path: 'apps/admin-api/src/devices/__import-probe__.repository.ts',
    source: QUERY,
    flagged: false,
  },
  {
    why: 'a lib file that is not a repository may not either',
    path: 'libs/platform-client/src/__import-probe__.ts',
    source: QUERY,
    flagged: true,
  },
  {
    why: 'SQL text through @fleet/db is SQL too',
    path: 'apps/orchestrator/src/campaigns/__import-probe__.ts',
    source: "import { sql } from '@fleet/db';\nexport const probe = sql`SELECT 1`;\n",
    flagged: true,
  },
  {
    why: 'a handler may not open its own query builder',
    path: 'apps/voice-worker/src/turns/__import-probe__.ts',
    source: "import { Kysely } from 'kysely';\nexport const probe = Kysely;\n",
    flagged: true,
  },
  {
    why: 'nor talk to Redis',
    path: 'apps/broker/src/__import-probe__.ts',
    source: "import Redis from 'ioredis';\nexport const probe = new Redis();\n",
    flagged: true,
  },
  {
    why: 'a file handed a client may name its type',
    path: 'apps/orchestrator/src/campaigns/__import-probe-type__.ts',
    source: "import type { Pool } from 'pg';\nexport type Probe = (pool: Pool) => void;\n",
    flagged: false,
  },
  {
    why: 'an MQTT adapter may use mqtt',
    path: 'apps/orchestrator/src/mcp/mqtt-__import-probe__.ts',
    source: "import { connect } from 'mqtt';\nexport const probe = connect;\n",
    flagged: false,
  },
  {
    why: 'anything else may not',
    path: 'apps/orchestrator/src/mcp/__import-probe__.ts',
    source: "import { connect } from 'mqtt';\nexport const probe = connect;\n",
    flagged: true,
  },
];

describe('the data-access import rule', () => {
  it('refuses pg, kysely, ioredis, mqtt and @fleet/db sql outside repositories and adapters', () => {
    try {
      for (const probe of PROBES) writeFileSync(join(root, probe.path), probe.source);
      const lint = spawnSync(
        'npx',
        [
          'eslint',
          '--format',
          'json',
          '--rule',
          '@nx/enforce-module-boundaries: off',
          ...PROBES.map((p) => p.path),
        ],
        { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      );
      const results = JSON.parse(lint.stdout) as {
        filePath: string;
        messages: { ruleId: string | null; message: string }[];
      }[];
      const outcome = PROBES.map((probe) => {
        const messages = results.find((r) => r.filePath.endsWith(probe.path))?.messages ?? [];
        return {
          probe: probe.why,
          flagged: messages.some((m) => m.ruleId === '@typescript-eslint/no-restricted-imports'),
        };
      });
      expect(outcome).toEqual(PROBES.map((p) => ({ probe: p.why, flagged: p.flagged })));
      // The refusal says where the query belongs.
      const service = results.find((r) => r.filePath.endsWith(PROBES[0]!.path));
      expect(
        service?.messages.find((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')?.message,
      ).toMatch(/repository/);
    } finally {
      for (const probe of PROBES) rmSync(join(root, probe.path), { force: true });
    }
  }, 180_000);
});
