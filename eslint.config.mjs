// Lint: type-aware TypeScript rules plus Nx module boundaries with real constraints (STYLE.md §6).
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { VERDICT_LITERAL_FILES, VERDICT_LITERALS } from './tools/lint/rules/verdict-literals.mjs';

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

// DESIGN §1: a call's state changes only through libs/db's calls repository (the runner's writes, a cancellation
// request); anywhere else, an UPDATE of the call table, in SQL or through Kysely, is a second owner.
const CALL_STATE_MESSAGE =
  "a call's state is written only by the calls repository of libs/db (through the orchestrator's runner)";
const CALL_STATE_WRITES = [
  { selector: 'TemplateElement[value.raw=/UPDATE\\s+call\\b/i]', message: CALL_STATE_MESSAGE },
  { selector: 'Literal[value=/UPDATE\\s+call\\b/i]', message: CALL_STATE_MESSAGE },
  {
    selector: "CallExpression[callee.property.name='updateTable'][arguments.0.value=/^call( |$)/]",
    message: CALL_STATE_MESSAGE,
  },
];
const ENV_READS = {
  // STYLE §4: configuration is read once, in each app's config module.
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message: 'read the environment only in a config module (config.ts) or test setup',
};
// Drivers a file may import only when it is a repository or an adapter (the block that uses it says who may). A
// type import is allowed anywhere: a file handed a client by its composition root may name the client's type
// without reaching the server itself.
const dataAccessImports = {
  paths: [
    {
      name: 'pg',
      allowTypeImports: true,
      message: 'only repositories and adapters talk to Postgres: move the query into a *.repository.ts',
    },
    {
      name: 'kysely',
      allowTypeImports: true,
      message: 'only repositories build queries: move the query into a *.repository.ts',
    },
    {
      name: 'ioredis',
      allowTypeImports: true,
      message: 'only adapters talk to Redis (a redis-*.ts, *-adapter.ts or @fleet/queues)',
    },
    {
      name: 'mqtt',
      allowTypeImports: true,
      message: 'only adapters talk to MQTT (a mqtt-*.ts, *-adapter.ts or @fleet/messaging)',
    },
    {
      name: '@fleet/db',
      importNames: ['sql', 'databaseOn'],
      message: 'SQL belongs in a repository file (*.repository.ts)',
    },
  ],
  patterns: [
    {
      group: ['pg/*', 'kysely/*', 'ioredis/*', 'mqtt/*'],
      allowTypeImports: true,
      message: 'only repositories and adapters',
    },
  ],
};

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
        ...CALL_STATE_WRITES,
      ],
    },
  },
  {
    // DESIGN §1: a verdict is born in one place (the orchestrator's verification/): tools/lint/rules.
    ...VERDICT_LITERAL_FILES,
    rules: { 'no-restricted-syntax': ['error', ENV_READS, ...CALL_STATE_WRITES, ...VERDICT_LITERALS] },
  },
  {
    // DESIGN §1: one owner of a call's state; its writes live in the shared calls repository only.
    files: ['libs/db/src/repositories/calls/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'read the environment only in a config module (config.ts) or test setup',
        },
      ],
    },
  },
  {
    // STYLE §2, DESIGN §8: only repositories and adapters talk to Postgres, Redis or MQTT (and `sql` from @fleet/db
    // is SQL text). Everything else gets them passed in as a repository, a queue or a channel.
    files: ['**/*.ts', '**/*.tsx'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', dataAccessImports] },
  },
  {
    // Who may: repositories (`*.repository.ts`, `*-repository.ts`, `repositories/`), libs/db, named adapters
    // (`*-adapter.ts`, `redis-*.ts`, `mqtt-*.ts`, `*-mqtt.ts`), composition roots (`*-module.ts`, `*.module.ts`,
    // `*-app.ts`), the libs that are adapters as a whole (queues:
    // BullMQ/ioredis; messaging: the services' MQTT client), tests and test helpers (they set up rows and
    // connections themselves), and the tools that drive real brokers and databases (benchmarks, simulator, e2e,
    // chaos, launcher, build/test setup).
    files: [
      '**/*.repository.ts',
      '**/*-repository.ts',
      '**/repositories/**/*.ts',
      'libs/db/**/*.ts',
      '**/*-adapter.ts',
      '**/redis-*.ts',
      '**/mqtt-*.ts',
      '**/*-mqtt.ts',
      // composition roots: they open the connections and hand them to repositories and adapters
      '**/*-module.ts',
      '**/*.module.ts',
      '**/*-app.ts',
      'libs/queues/src/**/*.ts',
      'libs/messaging/src/**/*.ts',
      '**/*.spec.ts',
      '**/test/**/*.ts',
      'libs/testing/src/**/*.ts',
      'tools/{bench,device-sim,e2e,chaos,jest,launcher,deploy-check,build}/**/*.ts',
    ],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
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
  {
    // The lint-rule specs' probe files (tools/lint/test/probes), which exist only while those specs run: the rules
    // they prove need no type information, and without a TypeScript program over the workspace their one ESLint
    // run takes seconds instead of most of a minute.
    files: ['**/*probe*__*'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
