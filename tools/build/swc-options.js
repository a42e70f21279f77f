// One source of SWC options for the build and for Jest. Import aliases come from tsconfig.base.json,
// so a new lib is declared in exactly one place.
const path = require('node:path');
const tsconfig = require('../../tsconfig.base.json');

const root = path.resolve(__dirname, '../..');

function swcOptions({ sourceMaps = true } = {}) {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      // NestJS dependency injection reads the emitted design:paramtypes metadata.
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
      baseUrl: root,
      paths: tsconfig.compilerOptions.paths,
    },
    module: { type: 'commonjs' },
    sourceMaps,
  };
}

/** moduleNameMapper entries for Jest, from the same aliases. */
function jestModuleNameMapper() {
  const mapper = {};
  for (const [alias, [target]] of Object.entries(tsconfig.compilerOptions.paths)) {
    mapper[`^${alias.replace('/', '\\/')}$`] = path.join(root, target);
  }
  return mapper;
}

module.exports = { root, swcOptions, jestModuleNameMapper };
