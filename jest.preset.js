// Shared Jest settings: SWC compiles (no type-checking here; `npm run typecheck` does that),
// aliases come from tsconfig.base.json, and the migrated template database is prepared once.
const path = require('node:path');
const { swcOptions, jestModuleNameMapper } = require('./tools/build/swc-options');

const ESM_PACKAGES = ['aedes', 'openid-client', 'oauth4webapi', 'jose'];

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swcOptions({ sourceMaps: 'inline' }), swcrc: false }],
    // Some dependencies ship ES modules only (aedes 1.x; openid-client and what it builds on). Node 20 lets the
    // services require() them, but Jest's module system does not, so under Jest they are compiled to CommonJS.
    [`node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`]: [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' },
        module: { type: 'commonjs' },
        swcrc: false,
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: jestModuleNameMapper(),
  testMatch: ['<rootDir>/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: path.join(__dirname, 'tools/jest/global-setup.ts'),
  setupFiles: [path.join(__dirname, 'tools/jest/setup-env.ts')],
  testTimeout: 30_000,
};
