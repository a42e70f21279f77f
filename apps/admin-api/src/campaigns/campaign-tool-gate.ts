import {
  capabilityCall,
  markingsOf,
  NO_TOOL_AT_APPROVAL,
  profileFor,
  SYSTEM_REBOOT_TOOL,
  toolHash,
  toolSensitivity,
  type CampaignAction,
  type ProfiledDevice,
  type ToolProfileView,
} from '@fleet/domain';

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: unknown;
  annotations: unknown;
  userOnly: boolean;
}

/** One device as a campaign's gate sees it: its catalog's tools, its operators' markings, its model. */
export interface DeviceTools {
  deviceId: string;
  discovered: boolean;
  device: ProfiledDevice;
  tools: ReadonlyMap<string, ToolDefinition>;
  markings: ReadonlyMap<string, boolean>;
}

/**
 * The tool a capability action calls on one device (libs/domain capabilityCall, as the orchestrator's campaign
 * runner resolves it): its model's profile's, else the firmware's built-in one; undefined when it has none.
 */
export function capabilityToolOn(
  action: Extract<CampaignAction, { kind: 'capability' }>,
  d: DeviceTools,
  profiles: readonly ToolProfileView[],
): string | undefined {
  return capabilityCall(action.capability, action.value, d.device, profiles, (name) => d.tools.has(name))
    ?.tool;
}

/**
 * Whether calling `tool` on these devices needs a person's approval, by the one tool-access rule of libs/domain
 * (DESIGN §4, §8) as the orchestrator's gate applies it to each call: some device declares it user-only, has it
 * marked sensitive (by an operator, or by its model's profile), describes it as asking for confirmation (or
 * destructive) without an operator lifting that, or has no catalog yet (nobody can tell, so it is gated).
 */
export function toolIsGated(
  tool: string,
  devices: readonly DeviceTools[],
  profiles: readonly ToolProfileView[],
): boolean {
  if (tool === SYSTEM_REBOOT_TOOL) return true;
  return devices.some((d) => !d.discovered || toolIsSensitiveOn(tool, d, profiles));
}

/**
 * Whether a capability campaign waits for a second person (DESIGN §4): the tool some device would be called
 * with is user-only, marked sensitive (by an operator or by its model's profile) or sensitive by its
 * description, or a device has no catalog yet (nobody can tell which tool it would be). The same rule the
 * orchestrator's gate applies to each call, asked once for the campaign instead of refusing device by device.
 */
export function capabilityIsGated(
  action: Extract<CampaignAction, { kind: 'capability' }>,
  devices: readonly DeviceTools[],
  profiles: readonly ToolProfileView[],
): boolean {
  return devices.some((d) => {
    if (!d.discovered) return true;
    const tool = capabilityToolOn(action, d, profiles);
    return tool !== undefined && toolIsSensitiveOn(tool, d, profiles);
  });
}

function toolIsSensitiveOn(tool: string, d: DeviceTools, profiles: readonly ToolProfileView[]): boolean {
  const definition = d.tools.get(tool);
  const marking = markingsOf(profileFor(profiles, d.device, tool), { sensitive: d.markings.get(tool) });
  return toolSensitivity(
    {
      name: tool,
      description: definition?.description ?? '',
      userOnly: definition?.userOnly ?? false,
      annotations: definition?.annotations,
    },
    marking.sensitive,
  ).sensitive;
}

/**
 * What a capability campaign's approval binds on each device (DESIGN §4): the hash of the tool it resolves to
 * now, so a device whose profile or catalog later points elsewhere is refused, not silently sent.
 */
export function capabilityBindings(
  action: Extract<CampaignAction, { kind: 'capability' }>,
  devices: readonly DeviceTools[],
  profiles: readonly ToolProfileView[],
): { deviceId: string; hash: string }[] {
  return devices.map((d) => {
    const tool = capabilityToolOn(action, d, profiles);
    const definition = tool === undefined ? undefined : d.tools.get(tool);
    return { deviceId: d.deviceId, hash: definition ? toolHash(definition) : NO_TOOL_AT_APPROVAL };
  });
}
