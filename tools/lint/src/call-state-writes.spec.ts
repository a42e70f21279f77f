import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../..');

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
    try {
      for (const f of files) writeFileSync(join(root, f.path), f.source);
      // The Nx rule warns on stdout without the cached project graph, which would spoil the JSON.
      spawnSync('npx', ['nx', 'show', 'projects'], {
        cwd: root,
        env: { ...process.env, NX_DAEMON: 'false' },
      });
      const lint = spawnSync('npx', ['eslint', '--format', 'json', ...files.map((f) => f.path)], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      });
      const results = JSON.parse(lint.stdout) as {
        filePath: string;
        messages: { ruleId: string | null; message: string }[];
      }[];
      const flagged = (path: string) =>
        (results.find((r) => r.filePath.endsWith(path))?.messages ?? []).some(
          (m) => m.ruleId === 'no-restricted-syntax' && m.message.includes('calls repository'),
        );
      for (const probe of OUTSIDE)
        expect({ probe: probe.why, flagged: flagged(probe.path) }).toEqual({
          probe: probe.why,
          flagged: true,
        });
      expect(flagged(INSIDE.path)).toBe(false);
    } finally {
      for (const f of files) rmSync(join(root, f.path), { force: true });
    }
  }, 120_000);
});
