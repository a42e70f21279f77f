import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyArgs, execForm, parseDockerfile, runCommand, stageNamed } from './dockerfile';
import { COMMANDS, DOCKERFILE, ROOT, type Component } from './deploy-files';

const text = readFileSync(DOCKERFILE, 'utf8');
const dockerfile = parseDockerfile(text);

describe('deploy/Dockerfile', () => {
  it('reads multi-line instructions, stages and exec-form commands', () => {
    const parsed = parseDockerfile(
      'ARG BASE=node\nFROM ${BASE} AS build\n# note\nRUN a \\\n  # inner comment\n  && b\nFROM build AS runtime\nCMD ["node", "x.js"]\n',
    );
    expect(parsed.globalArgs.map((a) => a.args)).toEqual(['BASE=node']);
    expect(parsed.stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    expect(parsed.stages[0]!.instructions[0]).toMatchObject({ keyword: 'RUN', args: 'a && b' });
    expect(execForm(parsed.stages[1]!.instructions[0]!)).toEqual(['node', 'x.js']);
  });

  it('runs files that `npm run build` produces, from sources it compiles', () => {
    const cmd = execForm(stageNamed(dockerfile, 'runtime').instructions.find((i) => i.keyword === 'CMD')!);
    expect(Object.values(COMMANDS).map((c) => JSON.stringify(c))).toContain(JSON.stringify(cmd));
    for (const [name, [node, file]] of Object.entries(COMMANDS) as [Component, readonly string[]][]) {
      expect(node).toBe('node');
      // global test setup has just run the build (tools/build/build.js) on this tree
      expect([name, existsSync(join(ROOT, file!))]).toEqual([name, true]);
      // ... from a source of this tree, not a leftover in dist/
      const source = file!.replace(/^dist\//, '').replace(/\.js$/, '.ts');
      expect([name, existsSync(join(ROOT, source))]).toEqual([name, true]);
      expect(source).not.toMatch(/\.spec\.ts$|(^|\/)test\//);
      // and the header that tells a reader which command runs what lists it
      expect(text).toContain(COMMANDS[name].join(' '));
    }
  });

  it('builds in one stage and runs in another: production dependencies, dist/ and migrations, as an unprivileged user', () => {
    expect(dockerfile.stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    const build = stageNamed(dockerfile, 'build');
    const buildRuns = build.instructions.filter((i) => i.keyword === 'RUN').map(runCommand);
    expect(buildRuns).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^npm ci\b/),
        expect.stringMatching(/generate-prisma-client\.js.*npm run build/),
      ]),
    );
    const runtime = stageNamed(dockerfile, 'runtime');
    const install = runtime.instructions
      .filter((i) => i.keyword === 'RUN')
      .map(runCommand)
      .find((r) => r.startsWith('npm '));
    expect(install).toMatch(/^npm ci .*--omit=dev/);
    expect(install).toMatch(/--omit=optional/); // see the Dockerfile: @prisma/client's optional peers
    const fromBuild = runtime.instructions
      .filter((i) => i.keyword === 'COPY')
      .map(copyArgs)
      .filter((c) => c.from === 'build');
    // only what the build made; node_modules never comes from the build stage (it has the dev dependencies)
    expect(fromBuild.flatMap((c) => c.sources)).toEqual(['/src/dist']);
    const env = runtime.instructions.filter((i) => i.keyword === 'ENV').map((i) => i.args);
    expect(env).toContain('NODE_ENV=production');
    const user = runtime.instructions.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(user).toEqual(['node']);
    expect(runtime.instructions.map((i) => i.keyword)).not.toContain('ENTRYPOINT');
  });
});
