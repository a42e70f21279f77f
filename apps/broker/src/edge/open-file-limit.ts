import { readFileSync } from 'node:fs';
import type { BudgetLimits } from './connection-budget';

/**
 * The soft RLIMIT_NOFILE of this process, from /proc/self/limits (Linux; undefined elsewhere or when unlimited).
 * Node raises its soft limit to the hard one when it starts, so this is the hard limit the process was given.
 */
export function readOpenFileLimit(path = '/proc/self/limits'): number | undefined {
  try {
    return parseOpenFileLimit(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

export function parseOpenFileLimit(limits: string): number | undefined {
  const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1];
  const value = Number(soft);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

export interface EdgeBudgetSettings {
  pendingMax: number;
  pendingPerAddress: number;
  /** Descriptors device connections never take: Postgres, Redis, the emitter, logs, a refusal's own accept. */
  reservedFiles: number;
}

/**
 * The budget's limits for an open-file limit: device connections may hold what the reserve leaves (the reserve
 * itself at most a quarter of a small limit), and pending ones never more than that either.
 */
export function edgeBudgetLimits(settings: EdgeBudgetSettings, openFiles: number | undefined): BudgetLimits {
  const openMax =
    openFiles === undefined
      ? Number.MAX_SAFE_INTEGER
      : openFiles - Math.min(settings.reservedFiles, Math.floor(openFiles / 4));
  return {
    openMax,
    pendingMax: Math.min(settings.pendingMax, openMax),
    pendingPerAddress: Math.min(settings.pendingPerAddress, settings.pendingMax, openMax),
  };
}
