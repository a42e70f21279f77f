import { readFileSync } from 'node:fs';

// The broker budgets its device connections against its descriptor limit (RLIMIT_NOFILE). Node raises its own
// soft limit to the hard one when it starts (node.cc, PlatformInit), so a login shell's 1024 does not reach the
// broker; the hard limit does, and only the system can raise that. The launcher reads it and says it.

export interface OpenFilesLimit {
  soft: number | 'unlimited';
  hard: number | 'unlimited';
}

/** Pure: the "Max open files" line of /proc/<pid>/limits. */
export function parseOpenFilesLimit(limits: string): OpenFilesLimit | undefined {
  const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(limits);
  if (!match) return undefined;
  const value = (v: string) => (v === 'unlimited' ? v : Number(v));
  return { soft: value(match[1]!), hard: value(match[2]!) };
}

/** A process's open-files limit as Linux reports it; undefined where there is no /proc (macOS). */
export function openFilesLimitOf(pid: number): OpenFilesLimit | undefined {
  try {
    return parseOpenFilesLimit(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Pure: what the launcher says about a service's limit when it starts. */
export function describeOpenFiles(limit: OpenFilesLimit | undefined): string {
  if (!limit) return '';
  if (limit.soft === limit.hard) return `; open files ${limit.soft} (its hard limit)`;
  return `; open files ${limit.soft}, below its hard limit ${limit.hard}: it will refuse devices sooner than it could`;
}
