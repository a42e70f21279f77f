// cron-parser comes with BullMQ (its repeatable jobs use it); it should become a direct dependency.
import { parseExpression } from 'cron-parser';

/** A schedule's timing: a cron expression in a time zone, or one time. */
export type ScheduleTiming = { cron: string; timeZone: string } | { runAt: Date };

/** Whether a cron expression parses (5 fields, or 6 with seconds); the parser's message when not. */
export function cronProblem(cron: string, timeZone: string): string | undefined {
  const fields = cron.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) return 'a cron expression has 5 fields (or 6, seconds first)';
  try {
    parseExpression(cron, { tz: timeZone }).next();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * The next run strictly after `after`: the cron expression's next time in the schedule's time zone (so "0 9 * * *"
 * is nine in the morning there, across daylight-saving changes), or the one time while it is still ahead.
 */
export function nextRun(timing: ScheduleTiming, after: Date): Date | null {
  if ('runAt' in timing) return timing.runAt > after ? timing.runAt : null;
  return parseExpression(timing.cron, { tz: timing.timeZone, currentDate: after }).next().toDate();
}
