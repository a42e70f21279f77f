const preset = require('../../jest.preset.js');

// openid-client and what it builds on (oauth4webapi, jose) ship ES modules only. Node 20 lets the service
// require() them, but Jest's module system does not, so under Jest they are compiled to CommonJS, as the
// preset does for aedes.
const ESM_PACKAGES = ['openid-client', 'oauth4webapi', 'jose'];

module.exports = {
  ...preset,
  displayName: 'admin-api',
  rootDir: __dirname,
  transform: {
    ...preset.transform,
    [`node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`]: [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' },
        module: { type: 'commonjs' },
        swcrc: false,
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(aedes|${ESM_PACKAGES.join('|')})/)`],
};
