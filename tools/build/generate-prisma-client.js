#!/usr/bin/env node
// Runs `prisma generate` at install. Prisma 7's CLI insists on locating a native schema engine even though
// generation does not use it, and downloading one is impossible here; any existing file satisfies the check.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const result = spawnSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
process.exit(result.status ?? 1);
