import type { ProbeSet } from './probe-set';

const QUERY = "import { Pool } from 'pg';\nexport const probe = (pool: Pool) => pool.query('SELECT 1');\n";

// STYLE §2, DESIGN §8: only repository and adapter files reach Postgres, Redis or MQTT.
export const DATA_ACCESS_IMPORTS: ProbeSet = {
  rule: 'the data-access import rule',
  ruleId: '@typescript-eslint/no-restricted-imports',
  probes: [
    {
      why: 'a service may not query Postgres',
      path: 'apps/admin-api/src/devices/__import-probe__.service.ts',
      source: QUERY,
      flagged: true,
      says: /repository/,
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
  ],
};
