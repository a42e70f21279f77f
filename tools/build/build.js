#!/usr/bin/env node
// Compiles apps/, libs/ and tools/ to dist/ with SWC (type-checking is `npm run typecheck`).
// Tests and test helpers are left out: dist/ is what the container image runs.
// The web console (apps/console) is bundled by Vite into dist/apps/console (build-console.js).
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');
const { buildConsole } = require('./build-console');
const { buildVerifier } = require('./build-verifier');
const { root, swcOptions } = require('./swc-options');

const SOURCE_DIRS = ['apps', 'libs', 'tools'];
const SKIP = [
  /\.spec\.ts$/,
  /\.d\.ts$/,
  /(^|\/)test\//,
  /^libs\/testing\//,
  /^apps\/console\//,
  /node_modules/,
];

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.name.endsWith('.ts')) yield full;
  }
}

async function main() {
  const started = Date.now();
  const outRoot = path.join(root, 'dist');
  const files = SOURCE_DIRS.flatMap((d) => [...walk(path.join(root, d))])
    .map((f) => path.relative(root, f))
    .filter((rel) => !SKIP.some((re) => re.test(rel)));
  const options = swcOptions();
  await Promise.all(
    files.map(async (rel) => {
      const src = path.join(root, rel);
      const out = path.join(outRoot, rel.replace(/\.ts$/, '.js'));
      const { code, map } = await swc.transformFile(src, {
        ...options,
        filename: src,
        outputPath: out,
        swcrc: false,
      });
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, map ? `${code}\n//# sourceMappingURL=${path.basename(out)}.map\n` : code);
      if (map) fs.writeFileSync(`${out}.map`, map);
    }),
  );
  console.log(`build: ${files.length} files to dist/ in ${Date.now() - started} ms`);
  const verifier = await buildVerifier();
  console.log(`build: audit-verify bundled into dist/audit-verify in ${verifier.ms} ms`);
  const web = await buildConsole();
  console.log(`build: console ${web.built ? 'bundled' : 'up to date'} in ${web.ms} ms`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
