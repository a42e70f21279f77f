import { z } from 'zod';

/**
 * DESIGN §5 for devices without `self.get_device_status` (ListenAI's have none): per device model, which read
 * tool shows a tool's effect, and where in its answer. The read tool's text is read as JSON and `path` walks it
 * (dotted keys; empty means the whole answer, e.g. a bare number).
 *
 * `[{"model":"arcs-mini","tool":"set_volume","argument":"value","read":{"tool":"get_volume"},"path":"value"}]`
 */
export const modelReadbackSchema = z.strictObject({
  /** The device's model: its board as registered, or the serverInfo.name its initialize answered. */
  model: z.string().min(1),
  /** The tool whose effect this checks. */
  tool: z.string().min(1),
  /** The argument holding the target value (the readback must equal it). */
  argument: z.string().min(1),
  read: z.strictObject({
    tool: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).default({}),
  }),
  path: z
    .string()
    .regex(/^([^.]+(\.[^.]+)*)?$/, 'dotted keys, or empty for the whole answer')
    .default(''),
  /** Re-read until the value settles, up to this long (a ramp). */
  settleMs: z.int().min(0).max(10_000).default(0),
});
export type ModelReadback = z.infer<typeof modelReadbackSchema>;

export const modelReadbacksSchema = z.array(modelReadbackSchema).superRefine((entries, ctx) => {
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    const key = `${e.model}\u0000${e.tool}`;
    if (seen.has(key))
      ctx.addIssue({ code: 'custom', path: [i], message: `${e.model} ${e.tool} is given twice` });
    seen.add(key);
  });
});
