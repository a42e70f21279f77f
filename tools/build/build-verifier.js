#!/usr/bin/env node
// Bundles the auditor's tools (audit:verify, the witness) into single files under dist/audit-verify, with zod and
// every lib they use inside: an auditor copies one file and runs it with plain `node`, with no checkout, no
// node_modules and no build step (DESIGN §6). Rolldown is the bundler Vite already brings.
const fs = require('node:fs');
const path = require('node:path');
const { root } = require('./swc-options');

const OUT = path.join(root, 'dist/audit-verify');
const ENTRIES = {
  'audit-verify.cjs': 'tools/audit-verify/src/cli.ts',
  'witness.cjs': 'tools/audit-verify/src/witness-cli.ts',
};

async function buildVerifier() {
  const started = Date.now();
  const { build } = await import('rolldown');
  for (const [file, input] of Object.entries(ENTRIES)) {
    await build({
      cwd: root,
      input: path.join(root, input),
      platform: 'node',
      tsconfig: path.join(root, 'tsconfig.base.json'),
      logLevel: 'warn',
      output: { file: path.join(OUT, file), format: 'cjs' },
    });
  }
  const pkg = {
    name: 'voice-fleet-audit-verify',
    private: true,
    description:
      'Offline checks of voice-fleet audit exports and a witness for its evidence log: plain node, no install',
    bin: { 'audit-verify': './audit-verify.cjs', witness: './witness.cjs' },
  };
  fs.writeFileSync(path.join(OUT, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return { ms: Date.now() - started };
}

module.exports = { buildVerifier };

if (require.main === module) {
  buildVerifier().then(
    (r) => console.log(`build: audit-verify bundled in ${r.ms} ms`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
