#!/usr/bin/env node
// Runs `prisma generate` at install (the Prisma client and the Kysely table types). Prisma 7's CLI insists on locating a native schema engine even though
// generation does not use it, and downloading one is impossible here; any existing file satisfies the check.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const result = spawnSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    // the second generator (prisma-kysely) is a command Prisma runs: find it however this script is started
    PATH: [path.join(root, 'node_modules/.bin'), process.env.PATH].join(path.delimiter),
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
process.exit(result.status ?? 1);
