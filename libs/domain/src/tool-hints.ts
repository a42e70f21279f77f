import { declaresReadOnly, toolSensitivity, type SensitiveMarking, type ToolFacts } from './tool-access';
import { markingsOf, type ToolKind } from './tool-profiles';

/** MCP tool annotations as the platform states them about a device's tool (not as the device declared them). */
export interface PlatformToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * What the platform says a device's tool is, from the same facts the gate decides with (DESIGN §4: user-only,
 * an operator's markings, a confirmation in the description, destructiveHint): a read changes nothing and may be
 * repeated; a tool the gate holds for a person is destructive. The one place these hints come from, so that a
 * description of tools per model and catalog (tool profiles) changes them here alone.
 */
export function platformToolHints(
  tool: ToolFacts,
  /** The device's own markings; they override what its model's tool profile says. */
  markings: { sensitive: SensitiveMarking; readOnly: boolean | undefined },
  profile?: { kind: ToolKind },
): PlatformToolHints {
  const effective = markingsOf(profile, markings);
  const readOnly = effective.readOnly ?? declaresReadOnly(tool);
  const sensitive = toolSensitivity(tool, effective.sensitive).sensitive;
  return {
    readOnlyHint: readOnly && !sensitive,
    destructiveHint: sensitive,
    idempotentHint: readOnly && !sensitive,
    openWorldHint: true, // every device tool reaches a physical device
  };
}
