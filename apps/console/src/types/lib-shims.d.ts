// The console imports only *types* from @fleet/domain (eslint.config.mjs enforces it), but tsc still reads the
// lib's index, whose hash helpers import node:crypto. This declares just what those helpers use; nothing in
// the browser bundle does (a value import of @fleet/domain fails the Vite build: see vite.config.ts).
declare module 'node:crypto' {
  interface Hash {
    update(data: string, encoding?: 'utf8'): Hash;
    digest(encoding: 'hex'): string;
    digest(): { readUInt16BE(offset: number): number };
  }
  export function createHash(algorithm: string): Hash;
}
