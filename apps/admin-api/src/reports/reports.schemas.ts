import { z } from 'zod';
import { DIALECTS, macSchema } from '@fleet/protocol';
import { isoInstant } from '../http/common-schemas';

export const CSV_SECTIONS = ['calls', 'approvals', 'campaigns', 'summary'] as const;
export type CsvSection = (typeof CSV_SECTIONS)[number];

export const auditQuery = z
  .strictObject({
    from: isoInstant.optional().describe('start of the period (inclusive); default: 24 hours before `to`'),
    to: isoInstant.optional().describe('end of the period (exclusive); default: now'),
    format: z.enum(['json', 'csv']).default('json'),
    evidence: z
      .enum(['heads', 'rows'])
      .default('heads')
      .describe(
        'JSON only: `heads`, the chain heads the report covers (signed); `rows`, also every chain link and sealed call behind them, for `npm run audit:verify`',
      ),
    dialect: z.enum(DIALECTS).optional().describe('only the calls and approvals of devices of this dialect'),
    section: z
      .enum(CSV_SECTIONS)
      .default('calls')
      .describe(
        'CSV only: `calls` (one row per call: verdict, approval, effect, evidence), approvals, campaigns, summary',
      ),
  })
  .transform((q) => {
    const to = q.to ?? new Date();
    return { ...q, to, from: q.from ?? new Date(to.getTime() - 24 * 3600_000) };
  })
  .refine((q) => q.from < q.to, { message: 'must be after `from`', path: ['to'] });
export type AuditQuery = z.infer<typeof auditQuery>;

export const integrityQuery = z.strictObject({
  deviceId: macSchema.optional().describe('check one device only'),
});

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export { signingKeySchema as signingKeyView } from '@fleet/api-contract';
