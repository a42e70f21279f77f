import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './deploy-files';
import { isIgnored, parseDockerignore } from './dockerignore';

const rules = parseDockerignore(readFileSync(join(ROOT, '.dockerignore'), 'utf8'));

/** What a clean clone holds, plus what other work in this tree has added and git does not ignore. */
function contextFiles(): string[] {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .split('\n')
      .filter(Boolean);
  return [...git('ls-files'), ...git('ls-files', '--others', '--exclude-standard')];
}

describe('.dockerignore (the build context of deploy/Dockerfile)', () => {
  it('reads patterns the way Docker does: folders, ** at any depth, the last matching line wins', () => {
    const r = parseDockerignore('dist\n**/node_modules\n**/*.env\n!**/*.env.example\nsecrets/*.txt\n');
    expect(isIgnored(r, 'dist/apps/broker/src/main.js')).toBe(true);
    expect(isIgnored(r, 'apps/dist/x.ts')).toBe(false);
    expect(isIgnored(r, 'node_modules/pg/index.js')).toBe(true);
    expect(isIgnored(r, 'apps/console/node_modules/react/index.js')).toBe(true);
    expect(isIgnored(r, 'deploy/compose/secrets/broker.env')).toBe(true);
    expect(isIgnored(r, 'deploy/compose/secrets/broker.env.example')).toBe(false);
    expect(isIgnored(r, 'secrets/a.txt')).toBe(true);
    expect(isIgnored(r, 'secrets/deeper/a.txt')).toBe(false);
  });

  it('keeps every file the build stage needs', () => {
    const needed = contextFiles().filter(
      (f) =>
        /^(apps|libs|tools|prisma)\//.test(f) ||
        [
          'package.json',
          'package-lock.json',
          'tsconfig.base.json',
          'tsconfig.json',
          'prisma.config.ts',
        ].includes(f),
    );
    expect(needed.length).toBeGreaterThan(100);
    expect(needed.filter((f) => isIgnored(rules, f))).toEqual([]);
  });

  it('leaves out secrets, local state and what the image installs, generates and builds itself', () => {
    for (const path of [
      '.git/config',
      '.local/dev-secrets.json',
      '.env',
      '.env.production',
      'deploy/compose/secrets/broker.env',
      'deploy/compose/secrets/postgres.env',
      'node_modules/pg/package.json',
      'apps/console/node_modules/react/package.json',
      'dist/apps/broker/src/main.js',
      'libs/db/src/generated/prisma/client.ts',
      'isolate-0x1273e020-9012-v8.log',
      'tools/bench/results/connect.json',
    ]) {
      expect([path, isIgnored(rules, path)]).toEqual([path, true]);
    }
  });
});
