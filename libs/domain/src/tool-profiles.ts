import { z } from 'zod';
import type { SensitiveMarking } from './tool-access';

export const TOOL_KINDS = ['read', 'action', 'sensitive', 'needs_confirmation'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

/** Which verdicts count as done for a tool or a campaign (DESIGN §1: `acknowledged` is not proof). */
export const DONE_WHEN = ['verified', 'verified_or_acknowledged'] as const;
export type DoneWhen = (typeof DONE_WHEN)[number];

const dottedPath = z
  .string()
  .max(200)
  .regex(/^([^.]+(\.[^.]+)*)?$/, 'dotted keys, or empty for the whole answer')
  .default('');

/**
 * How a setter's effect is read back (DESIGN §5): the reader tool, where in its answer (read as JSON; empty: the
 * whole answer, e.g. "true" or a bare number), and what it must equal: the value of one of the call's arguments
 * (`set_volume.value` ↔ `get_volume` → `value`), or a constant (`self.light.turn_on` ↔ `get_power` → `true`).
 */
export const readbackSpecSchema = z
  .strictObject({
    tool: z.string().min(1).max(200),
    arguments: z.record(z.string(), z.unknown()).default({}),
    path: dottedPath,
    argument: z.string().min(1).max(200).optional(),
    value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
    /** Re-read until the value settles, up to this long (a ramp). */
    settleMs: z.int().min(0).max(10_000).default(0),
  })
  .refine((r) => (r.argument === undefined) !== (r.value === undefined), {
    message: 'give exactly one of argument (the target is that argument) or value (a constant target)',
  });
export type ReadbackSpec = z.output<typeof readbackSpecSchema>;

/** A capability a campaign may name across families ("volume" 30): this tool, the value in this argument. */
export const capabilitySchema = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z][a-z0-9_.-]*$/, 'lower-case letters, digits, _ . -'),
  argument: z.string().min(1).max(200),
});
export type Capability = z.output<typeof capabilitySchema>;

/** What a person says about one tool of one model (and, optionally, one catalog content). */
export const toolProfileBodySchema = z.strictObject({
  model: z.string().min(1).max(200),
  /** The catalog content's hash; absent or "": every catalog of the model. */
  catalogHash: z
    .string()
    .regex(/^([0-9a-f]{64})?$/, 'a catalog hash (64 hex) or empty')
    .default(''),
  tool: z.string().min(1).max(200),
  kind: z.enum(TOOL_KINDS),
  readback: readbackSpecSchema.optional(),
  capability: capabilitySchema.optional(),
  doneWhen: z.enum(DONE_WHEN).default('verified'),
});
export type ToolProfileBody = z.output<typeof toolProfileBodySchema>;

/** A stored profile as deciding reads it. */
export interface ToolProfileView {
  model: string;
  catalogHash: string;
  tool: string;
  kind: ToolKind;
  readback: ReadbackSpec | null;
  capability: Capability | null;
  doneWhen: DoneWhen;
}

/** What identifies a device's model and catalog: its registered board or initialize's serverName, its hash. */
export interface ProfiledDevice {
  board: string | null;
  serverName?: string | null | undefined;
  catalogHash?: string | null | undefined;
}

/**
 * The profile of a tool on a device, among those given for that tool name: one for the device's catalog content
 * wins over one for every catalog of its model; the registered board wins over the server name.
 */
export function profileFor(
  profiles: readonly ToolProfileView[],
  device: ProfiledDevice,
  tool: string,
): ToolProfileView | undefined {
  let best: { profile: ToolProfileView; score: number } | undefined;
  for (const p of profiles) {
    if (p.tool !== tool) continue;
    if (p.catalogHash !== '' && p.catalogHash !== device.catalogHash) continue;
    const byBoard = device.board !== null && p.model === device.board;
    if (!byBoard && !(device.serverName && p.model === device.serverName)) continue;
    const score = (p.catalogHash === '' ? 0 : 2) + (byBoard ? 1 : 0);
    if (!best || score > best.score) best = { profile: p, score };
  }
  return best?.profile;
}

/**
 * A profile as the markings the gate already understands (DESIGN §4): sensitive and needs-confirmation tools are
 * held for a person; a read is a read for verification (DESIGN §1); an action is not a read. A per-device marking
 * overrides the profile for its device.
 */
export function markingsOf(
  profile: Pick<ToolProfileView, 'kind'> | undefined,
  device: { sensitive?: boolean | undefined; readOnly?: boolean | undefined },
): { sensitive: SensitiveMarking; readOnly: boolean | undefined } {
  const fromProfile: { sensitive: SensitiveMarking; readOnly: boolean | undefined } =
    profile === undefined
      ? { sensitive: undefined, readOnly: undefined }
      : profile.kind === 'read'
        ? { sensitive: undefined, readOnly: true }
        : profile.kind === 'action'
          ? { sensitive: undefined, readOnly: false }
          : { sensitive: true, readOnly: false };
  return {
    sensitive: device.sensitive ?? fromProfile.sensitive,
    readOnly: device.readOnly ?? fromProfile.readOnly,
  };
}
