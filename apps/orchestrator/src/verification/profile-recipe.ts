import { markingsOf, profileFor, type ToolProfileView } from '@fleet/domain';
import type { DeviceRuntime } from '../devices/device-runtime';
import { recipeFor, type Recipe } from './recipes';

/** What deciding knows of a tool on a device besides its catalog row. */
export interface ToolStanding {
  profile: ToolProfileView | undefined;
  /** The gate's markings: the device's own where an operator set one, else its model's profile. */
  sensitive: boolean | undefined;
  readOnly: boolean | undefined;
  recipe: Recipe;
}

/**
 * A tool's recipe and markings on one device (DESIGN §5): a profile's readback for the device's model and catalog
 * wins over a built-in one (a device of that model may not have the built-in's read tool at all); a per-device
 * marking still overrides the profile's kind.
 */
export function toolStanding(
  device: Pick<DeviceRuntime, 'board' | 'catalog'>,
  tool: string,
  policy: {
    profiles: readonly ToolProfileView[];
    markings: ReadonlyMap<string, boolean>;
    readOnlyMarkings: ReadonlyMap<string, boolean>;
  },
  readOnlyHint?: unknown,
): ToolStanding {
  const profile = profileFor(
    policy.profiles,
    { board: device.board, serverName: device.catalog?.serverName, catalogHash: device.catalog?.hash },
    tool,
  );
  const marks = markingsOf(profile, {
    sensitive: policy.markings.get(tool),
    readOnly: policy.readOnlyMarkings.get(tool),
  });
  const readback = profile?.readback;
  const recipe: Recipe = readback
    ? {
        kind: 'readback',
        path: readback.path === '' ? [] : readback.path.split('.'),
        ...(readback.argument === undefined ? { value: readback.value } : { argument: readback.argument }),
        settleMs: readback.settleMs,
        read: { tool: readback.tool, arguments: readback.arguments },
      }
    : recipeFor(tool, { readOnlyHint, markedReadOnly: marks.readOnly });
  return { profile, sensitive: marks.sensitive, readOnly: marks.readOnly, recipe };
}
