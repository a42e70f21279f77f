import { z } from 'zod';
import { instant, page } from './common';

/** DESIGN §3: a check-in held back because its Client-Id differs from the bound one; a fingerprint only. */
export const quarantineClaimSchema = z.strictObject({
  id: z.uuid(),
  deviceId: z.string(),
  claimedClientIdFingerprint: z.string(),
  claimedSerial: z.string().nullable(),
  remoteAddress: z.string().nullable(),
  state: z.enum(['pending', 'accepted', 'rejected']),
  decidedBy: z.uuid().nullable(),
  decidedAt: instant.nullable(),
  reason: z.string().nullable(),
  createdAt: instant,
});
export type QuarantineClaim = z.infer<typeof quarantineClaimSchema>;
export const quarantineListSchema = page(quarantineClaimSchema);
