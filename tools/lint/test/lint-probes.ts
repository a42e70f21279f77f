import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../..');

export interface Probe {
  path: string;
  source: string;
}

export interface LintMessage {
  ruleId: string | null;
  message: string;
}

/**
 * Writes the probe files, lints them with the workspace's own ESLint config, removes them, and returns each
 * probe's messages by path. Probes exist only while this runs (`npm run lint` passes over `*probe*__*` files).
 */
export function lintProbes(probes: readonly Probe[]): (path: string) => LintMessage[] {
  try {
    for (const p of probes) writeFileSync(join(root, p.path), p.source);
    // The Nx rule reads the cached project graph; without it the rule does nothing and warns on stdout, which
    // would spoil the JSON.
    spawnSync('npx', ['nx', 'show', 'projects'], { cwd: root, env: { ...process.env, NX_DAEMON: 'false' } });
    const lint = spawnSync('npx', ['eslint', '--format', 'json', ...probes.map((p) => p.path)], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    const results = JSON.parse(lint.stdout) as { filePath: string; messages: LintMessage[] }[];
    return (path) => results.find((r) => r.filePath.endsWith(path))?.messages ?? [];
  } finally {
    for (const p of probes) rmSync(join(root, p.path), { force: true });
  }
}
