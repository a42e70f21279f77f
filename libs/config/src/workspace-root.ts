import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder holding nx.json, found from a start folder (src/ or dist/ alike). */
export function findWorkspaceRoot(from: string): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}
