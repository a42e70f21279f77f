/**
 * Calendar months in UTC, the unit evidence is partitioned by (DESIGN §6: evidence is partitioned by time). A month
 * is its first instant; a partition holds [start, next month's start). UTC so a partition's bounds do not depend on
 * the time zone of the machine or the session that created it.
 */
export interface Month {
  year: number;
  /** 1 to 12. */
  month: number;
}

export function monthOf(at: Date): Month {
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1 };
}

export function addMonths(m: Month, n: number): Month {
  const index = m.year * 12 + (m.month - 1) + n;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** The month's first instant as a timestamptz literal Postgres reads the same in any session time zone. */
export function monthStart(m: Month): string {
  return `${String(m.year).padStart(4, '0')}-${String(m.month).padStart(2, '0')}-01 00:00:00+00`;
}

/** `evidence_2026_12`: sorts by time, and says which month it holds. */
export function partitionName(table: string, m: Month): string {
  return `${table}_${String(m.year).padStart(4, '0')}_${String(m.month).padStart(2, '0')}`;
}

/** Every month from `from` to `to`, both included (none when `to` is earlier). */
export function monthsBetween(from: Month, to: Month): Month[] {
  const out: Month[] = [];
  for (let m = from; compareMonths(m, to) <= 0; m = addMonths(m, 1)) out.push(m);
  return out;
}

export function compareMonths(a: Month, b: Month): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}
