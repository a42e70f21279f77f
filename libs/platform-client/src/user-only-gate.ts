import type { GateFacts } from '@fleet/db';
import { markingsOf, SYSTEM_REBOOT_TOOL, toolSensitivity } from '@fleet/domain';

/**
 * DESIGN §4: whether a tool waits for a person, by the one tool-access rule of libs/domain (user-only, an
 * operator's marking, a confirmation in the description, destructiveHint); `system.reboot` always does.
 * Undefined when nobody can tell yet (an unknown device, or one not discovered yet: the orchestrator decides once
 * it knows the catalog).
 */
export function isUserOnlyTool(tool: string, facts: GateFacts | undefined): boolean | undefined {
  if (tool === SYSTEM_REBOOT_TOOL) return true;
  if (!facts) return undefined;
  // The device's marking, else its model's tool profile (DESIGN §4).
  const { sensitive } = markingsOf(facts.profileKind ? { kind: facts.profileKind } : undefined, {
    sensitive: facts.sensitive ?? undefined,
  });
  if (sensitive === true) return true;
  if (facts.catalogVersionId === null) return undefined;
  // A tool the device does not have: not gated here, rejected as unknown later.
  if (facts.name === null) return false;
  return toolSensitivity(
    {
      name: facts.name,
      description: facts.description ?? '',
      userOnly: facts.userOnly ?? false,
      annotations: facts.annotations,
    },
    sensitive,
  ).sensitive;
}
