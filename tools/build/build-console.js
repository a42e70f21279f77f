#!/usr/bin/env node
// Builds the web console (apps/console, React) with Vite into dist/apps/console, which the admin API serves at
// `/`. Skipped when nothing it is built from has changed since the last build: the test setup runs the whole
// build before every Jest run. Built in a folder of its own and swapped in, so runs in parallel never see half.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { root } = require('./swc-options');

const APP = path.join(root, 'apps/console');
const OUT = path.join(root, 'dist/apps/console');
const STAMP = '.build-stamp';

function* sources(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (!entry.name.endsWith('.spec.ts')) yield full;
  }
}

/** A hash of everything the bundle is made from: the console's and the contract lib's sources, its config and the locked packages. */
function inputsHash() {
  const files = [
    ...sources(path.join(APP, 'src')),
    // The contract lib is bundled in (its zod schemas parse the API's events).
    ...sources(path.join(root, 'libs/api-contract/src')),
    path.join(APP, 'index.html'),
    path.join(APP, 'vite.config.ts'),
    path.join(root, 'package-lock.json'),
  ].sort();
  const hash = crypto.createHash('sha256');
  for (const file of files) hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file));
  return hash.digest('hex');
}

function swapIn(built) {
  const old = `${OUT}.old-${process.pid}`;
  try {
    fs.renameSync(OUT, old);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  try {
    fs.renameSync(built, OUT);
  } catch (err) {
    // Another build swapped in the same inputs' bundle first.
    if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    fs.rmSync(built, { recursive: true, force: true });
  }
  fs.rmSync(old, { recursive: true, force: true });
}

async function buildConsole() {
  const started = Date.now();
  const hash = inputsHash();
  const stampFile = path.join(OUT, STAMP);
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === hash) {
    return { built: false, ms: Date.now() - started };
  }
  const built = path.join(root, 'dist', `.console-${process.pid}`);
  // vite.config.ts is bundled to CommonJS (the workspace's module type): quiet the notice about its future loader.
  process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING ??= 'true';
  const { build } = await import('vite');
  await build({
    configFile: path.join(APP, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: built, emptyOutDir: true },
  });
  fs.writeFileSync(path.join(built, STAMP), hash);
  swapIn(built);
  return { built: true, ms: Date.now() - started };
}

module.exports = { buildConsole };

if (require.main === module) {
  buildConsole().then(
    (r) => console.log(`build: console ${r.built ? 'built' : 'up to date'} in ${r.ms} ms`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
