import type { z } from 'zod';

export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * One entry per failing field, named the way a client wrote it (`body.arguments.volume`, `query.limit`).
 * An unknown key is reported on the key itself, so "unknown field" names the field to remove.
 */
export function fieldIssues(error: z.ZodError, location: string): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const base = [location, ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: `${base}.${key}`, message: 'unknown field' }));
    }
    return [{ field: base, message: issue.message }];
  });
}

export function describeIssues(issues: FieldIssue[]): string {
  return issues.map((i) => `${i.field}: ${i.message}`).join('; ');
}
