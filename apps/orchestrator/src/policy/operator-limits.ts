import { z } from 'zod';

// Operator limits per device group (DESIGN §4): `{"self.audio_speaker.set_volume":{"volume":{"maximum":70}}}`.
// Breaking one is policy: the call is `rejected`, not `invalid_arguments`.
const argumentLimitSchema = z.looseObject({
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  allowed: z.array(z.unknown()).optional(),
});
export const groupLimitsSchema = z.record(z.string(), z.record(z.string(), argumentLimitSchema));
export type GroupLimits = z.infer<typeof groupLimitsSchema>;

export interface LimitResult {
  group: string;
  rule: string;
  ok: boolean;
}

export function checkLimits(
  groups: { name: string; limits: unknown }[],
  tool: string,
  args: Record<string, unknown>,
): LimitResult[] {
  const results: LimitResult[] = [];
  for (const group of groups) {
    const parsed = groupLimitsSchema.safeParse(group.limits);
    if (!parsed.success) continue;
    for (const [argument, limit] of Object.entries(parsed.data[tool] ?? {})) {
      const value = args[argument];
      if (limit.maximum !== undefined) {
        results.push({
          group: group.name,
          rule: `${argument} <= ${limit.maximum}`,
          ok: typeof value !== 'number' || value <= limit.maximum,
        });
      }
      if (limit.minimum !== undefined) {
        results.push({
          group: group.name,
          rule: `${argument} >= ${limit.minimum}`,
          ok: typeof value !== 'number' || value >= limit.minimum,
        });
      }
      if (limit.allowed !== undefined) {
        const allowed = limit.allowed;
        results.push({
          group: group.name,
          rule: `${argument} in ${JSON.stringify(allowed)}`,
          ok: value === undefined || allowed.some((a) => a === value),
        });
      }
    }
  }
  return results;
}
