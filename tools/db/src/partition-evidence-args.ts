import { z } from 'zod';
import type { PartitionEvidenceOptions, PartitionEvidenceReport } from '@fleet/db';

const args = z.object({
  'months-ahead': z.coerce.number().int().min(1).max(24),
  // Postgres lock_timeout syntax: a number and a unit (`10s`, `500ms`, `1min`).
  'lock-timeout': z.string().regex(/^\d+\s*(ms|s|min)$/, 'a number and ms, s or min'),
  'extend-only': z.boolean(),
});

/** The command's flags, checked before it connects (a bad flag should not cost a lock on evidence). */
export function parsePartitionArgs(values: Record<string, unknown>): PartitionEvidenceOptions {
  const parsed = args.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`--${String(issue.path[0])}: ${issue.message}`);
  }
  return {
    monthsAhead: parsed.data['months-ahead'],
    lockTimeout: parsed.data['lock-timeout'],
    extendOnly: parsed.data['extend-only'],
  };
}

export function describePartitionRun(r: PartitionEvidenceReport, ms: number): string {
  const through = r.partitions.at(-1) ?? 'none';
  if (r.layout === 'plain')
    return 'evidence is a plain table, left as it is (--extend-only); run without it to convert (docs/SCALING.md)';
  const created = r.createdPartitions.length > 0 ? r.createdPartitions.join(', ') : 'none';
  return r.converted
    ? `converted evidence into ${r.partitions.length} monthly partitions, ${r.movedRows} rows moved in ${ms} ms ` +
        `(last partition ${through})`
    : `evidence already partitioned; partitions created: ${created}; last partition ${through}`;
}
