import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../..');

// Where the services and `npm start` declare the variables they read (each app's config.ts and the shared
// pieces in libs/config). The benchmarks' own knobs are documented with them, in docs/BENCHMARKS.md.
const CONFIG_SOURCES = [
  ...readdirSync(join(root, 'apps'))
    .map((app) => `apps/${app}/src/config.ts`)
    .filter((path) => {
      try {
        readFileSync(join(root, path));
        return true;
      } catch {
        return false; // an app without a config of its own (the web console)
      }
    }),
  'libs/config/src/common-env.ts',
  'libs/config/src/service-mqtt-env.ts',
  'libs/config/src/tracing-env.ts',
  'tools/db/src/config.ts',
  'tools/launcher/src/config.ts',
];
// A schema entry: `NAME: z.…` or `NAME: envInt(…)` and the like.
const ENTRY = /^\s+([A-Z][A-Z0-9_]+):\s*(?:z\.|env[A-Z])/gm;

describe('README.md', () => {
  it('documents every environment variable a service reads', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const declared = new Set(
      CONFIG_SOURCES.flatMap((path) =>
        [...readFileSync(join(root, path), 'utf8').matchAll(ENTRY)].map((m) => m[1]!),
      ),
    );
    expect(declared.size).toBeGreaterThan(50);
    const undocumented = [...declared].filter((name) => !readme.includes(`\`${name}\``)).sort();
    expect(undocumented).toEqual([]);
  });
});
