import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// Built into dist/apps/console by tools/build/build-console.js and served by the admin API at `/`.
// `npx vite apps/console` serves it for development, proxying /api and /docs to a local API on :8080.
// @fleet/api-contract is aliased: the console parses answers and events with its zod schemas (zod and pure
// TypeScript only). @fleet/domain is deliberately not aliased: the console imports only its types
// (eslint.config.mjs), so a value import from it fails this build instead of shipping node:crypto to the browser.
export default defineConfig({
  root: __dirname,
  base: '/',
  resolve: { alias: { '@fleet/api-contract': resolve(__dirname, '../../libs/api-contract/src/index.ts') } },
  // React 19's automatic JSX runtime, compiled by oxc: a production build needs no React plugin.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: resolve(__dirname, '../../dist/apps/console'),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/docs': 'http://127.0.0.1:8080' },
  },
});
