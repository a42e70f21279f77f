// Lint: type-aware TypeScript rules plus Nx module boundaries with real constraints (STYLE.md §6).
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// What each kind of project may import. Apps depend on libs only; the protocol lib on nothing with I/O.
const typeConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:data-access', 'type:util', 'type:protocol'] },
  {
    sourceTag: 'type:data-access',
    onlyDependOnLibsWithTags: ['type:data-access', 'type:util', 'type:protocol'],
  },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:protocol'] },
  { sourceTag: 'type:protocol', onlyDependOnLibsWithTags: ['type:protocol'] },
  {
    sourceTag: 'type:tool',
    onlyDependOnLibsWithTags: ['type:data-access', 'type:util', 'type:protocol', 'type:tool'],
  },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:data-access', 'type:util', 'type:protocol'] },
  // Cross-service tests start the apps themselves (through each app's index), so they may import apps.
  {
    sourceTag: 'type:e2e',
    onlyDependOnLibsWithTags: ['type:app', 'type:data-access', 'type:util', 'type:protocol', 'type:tool'],
  },
];
const scopeConstraints = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:broker', onlyDependOnLibsWithTags: ['scope:shared', 'scope:broker'] },
  { sourceTag: 'scope:orchestrator', onlyDependOnLibsWithTags: ['scope:shared', 'scope:orchestrator'] },
  { sourceTag: 'scope:voice', onlyDependOnLibsWithTags: ['scope:shared', 'scope:voice'] },
  { sourceTag: 'scope:admin', onlyDependOnLibsWithTags: ['scope:shared', 'scope:admin'] },
  { sourceTag: 'scope:sim', onlyDependOnLibsWithTags: ['scope:shared', 'scope:sim'] },
  { sourceTag: 'scope:bench', onlyDependOnLibsWithTags: ['scope:shared', 'scope:sim', 'scope:bench'] },
  { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:shared', 'scope:console'] },
  { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['*'] },
];
const boundaries = (extra = [], allow = []) => [
  'error',
  {
    enforceBuildableLibDependency: false,
    allow,
    depConstraints: [...typeConstraints, ...scopeConstraints].map((c) => ({
      ...c,
      onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, ...extra],
    })),
  },
];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'libs/db/src/generated/**', 'coverage/**', '.nx/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // One program for the whole workspace (root tsconfig.json): much faster than a program per project.
      parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(),
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': [
        'error',
        {
          // STYLE §4: configuration is read once, in each app's config module.
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'read the environment only in a config module (config.ts) or test setup',
        },
      ],
    },
  },
  {
    // Tests may use the test helpers and start the simulator; production code may not.
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(['type:testing', 'type:tool', 'scope:sim']),
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // jest's asymmetric matchers (expect.stringContaining) are typed `any`
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // rows from pg are `any`; tests read them directly rather than declaring a type per query
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      'no-restricted-syntax': 'off',
    },
  },
  {
    // Cross-service tests run the apps in their own process (one in-memory span exporter sees them all), through
    // each app's index; Nx forbids importing an application anywhere else.
    files: ['tools/e2e/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(
        ['type:testing', 'type:tool', 'scope:sim'],
        ['@fleet/orchestrator', '@fleet/admin-api'],
      ),
    },
  },
  {
    files: [
      '**/config.ts',
      'tools/jest/**',
      'libs/testing/src/**/*.ts',
      'prisma.config.ts',
      'tools/build/**',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The web console runs in a browser: its own TypeScript program (DOM, JSX), React's hook rules, and only
    // *types* from @fleet/domain (its values would bring zod and node:crypto into the bundle).
    files: ['apps/console/src/**/*.{ts,tsx}', 'apps/console/vite.config.ts'],
    languageOptions: {
      globals: globals.browser,
      parserOptions: {
        project: ['./apps/console/tsconfig.json', './apps/console/tsconfig.spec.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@fleet/domain',
              allowTypeImports: true,
              message: 'the console imports only types from it',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract lib is bundled into the browser console: zod and pure TypeScript, only types from the libs
    // whose values bring node:crypto.
    files: ['libs/api-contract/src/**/*.ts'],
    ignores: ['libs/api-contract/src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['@fleet/domain', '@fleet/protocol', '@fleet/auth'].map((name) => ({
            name,
            allowTypeImports: true,
            message: 'the contract lib runs in the browser: import only types from it',
          })),
          patterns: [{ group: ['node:*'], message: 'the contract lib runs in the browser' }],
        },
      ],
    },
  },
  {
    // Its unit tests check the console's copies of the platform's vocabularies against the lib's own values.
    files: ['apps/console/src/**/*.spec.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
        console: 'readonly',
      },
    },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      '@typescript-eslint/no-require-imports': 'off',
      '@nx/enforce-module-boundaries': 'off', // build and test configuration, not project source
    },
  },
  prettier,
);
