import { z } from 'zod';
import type { ToolProfileBody } from './tool-profiles';

/**
 * The list the orchestrator once read from MODEL_READBACKS at start, kept only to import it into tool profiles
 * (`npm run db:import-readbacks`): `[{"model":"arcs-mini","tool":"set_volume","argument":"value",
 * "read":{"tool":"get_volume"},"path":"value"}]`.
 */
export const legacyModelReadbacksSchema = z.array(
  z.strictObject({
    model: z.string().min(1),
    tool: z.string().min(1),
    argument: z.string().min(1),
    read: z.strictObject({
      tool: z.string().min(1),
      arguments: z.record(z.string(), z.unknown()).default({}),
    }),
    path: z
      .string()
      .regex(/^([^.]+(\.[^.]+)*)?$/, 'dotted keys, or empty for the whole answer')
      .default(''),
    settleMs: z.int().min(0).max(10_000).default(0),
  }),
);

/**
 * The profiles an old list stood for: each setter an action read back as the entry said, and each reader a read
 * (the old list used it as one). For every catalog of the model, as the list was.
 */
export function profilesFromLegacyReadbacks(
  entries: z.output<typeof legacyModelReadbacksSchema>,
): ToolProfileBody[] {
  const profiles = new Map<string, ToolProfileBody>();
  for (const e of entries) {
    profiles.set(`${e.model}\u0000${e.tool}`, {
      model: e.model,
      catalogHash: '',
      tool: e.tool,
      kind: 'action',
      readback: {
        tool: e.read.tool,
        arguments: e.read.arguments,
        path: e.path,
        argument: e.argument,
        settleMs: e.settleMs,
      },
      doneWhen: 'verified',
    });
    const reader = `${e.model}\u0000${e.read.tool}`;
    if (!profiles.has(reader))
      profiles.set(reader, {
        model: e.model,
        catalogHash: '',
        tool: e.read.tool,
        kind: 'read',
        doneWhen: 'verified',
      });
  }
  return [...profiles.values()];
}
