// Shared Jest settings: SWC compiles (no type-checking here; `npm run typecheck` does that),
// aliases come from tsconfig.base.json, and the migrated template database is prepared once.
const path = require('node:path');
const { swcOptions, jestModuleNameMapper } = require('./tools/build/swc-options');

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swcOptions({ sourceMaps: 'inline' }), swcrc: false }],
    // aedes 1.x ships ES modules only. Node 20 lets the services require() it, but Jest's module system
    // does not, so under Jest it is compiled to CommonJS like our own code.
    'node_modules/aedes/.+\\.js$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' },
        module: { type: 'commonjs' },
        swcrc: false,
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!aedes/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: jestModuleNameMapper(),
  testMatch: ['<rootDir>/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: path.join(__dirname, 'tools/jest/global-setup.ts'),
  setupFiles: [path.join(__dirname, 'tools/jest/setup-env.ts')],
  testTimeout: 30_000,
};
