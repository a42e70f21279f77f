import { z } from 'zod';

/** GET /healthz: each real dependency checked (200 unless a critical one fails, then 503). */
export const healthSchema = z.strictObject({
  ok: z.boolean().describe('no critical check failed'),
  status: z.enum(['ok', 'degraded', 'unhealthy']),
  checks: z.record(
    z.string(),
    z.strictObject({
      ok: z.boolean(),
      latencyMs: z.number(),
      error: z.string().optional(),
      hint: z.string().optional(),
      severity: z.literal('degraded').optional(),
    }),
  ),
});
export type Health = z.infer<typeof healthSchema>;
