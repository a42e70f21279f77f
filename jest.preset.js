// Shared Jest settings: SWC compiles (no type-checking here; `npm run typecheck` does that),
// aliases come from tsconfig.base.json, and the migrated template database is prepared once.
const path = require('node:path');
const { swcOptions, jestModuleNameMapper } = require('./tools/build/swc-options');

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcOptions({ sourceMaps: 'inline' }), swcrc: false }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: jestModuleNameMapper(),
  testMatch: ['<rootDir>/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: path.join(__dirname, 'libs/testing/src/global-setup.ts'),
  setupFiles: [path.join(__dirname, 'libs/testing/src/setup-env.ts')],
  testTimeout: 30_000,
};
