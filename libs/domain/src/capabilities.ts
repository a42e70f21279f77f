import type { ToolProfileView } from './tool-profiles';
import { profileFor, type ProfiledDevice } from './tool-profiles';

/** A capability as one device carries it out: its tool and arguments. */
export interface CapabilityCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** Where the mapping came from, for the campaign's record. */
  source: 'profile' | 'built-in';
}

/** The xiaozhi firmware's own tools for the common capabilities (xiaozhi §3.4), used where no profile says. */
const BUILT_IN: Readonly<Record<string, { tool: string; argument: string }>> = {
  volume: { tool: 'self.audio_speaker.set_volume', argument: 'volume' },
  brightness: { tool: 'self.screen.set_brightness', argument: 'brightness' },
  theme: { tool: 'self.screen.set_theme', argument: 'theme' },
};

/**
 * How one device carries out a capability ("volume" 30): the tool its model's profile maps the capability to
 * (only a tool its catalog declares), else the firmware's built-in tool when the device has it; undefined when
 * the device has no way to do it.
 */
export function capabilityCall(
  capability: string,
  value: unknown,
  device: ProfiledDevice,
  profiles: readonly ToolProfileView[],
  declares: (tool: string) => boolean,
): CapabilityCall | undefined {
  const mapped = profiles.filter((p) => p.capability?.name === capability && declares(p.tool));
  for (const p of mapped) {
    if (profileFor(mapped, device, p.tool) !== p) continue;
    return { tool: p.tool, arguments: { [p.capability!.argument]: value }, source: 'profile' };
  }
  const builtIn = BUILT_IN[capability];
  if (builtIn && declares(builtIn.tool))
    return { tool: builtIn.tool, arguments: { [builtIn.argument]: value }, source: 'built-in' };
  return undefined;
}

/** Whether a sealed verdict counts as done for a campaign (DESIGN §1: acknowledged only where it says so). */
export function countsAsDone(
  verdict: string,
  doneWhen: 'verified' | 'verified_or_acknowledged',
): 'verified' | 'acknowledged' | undefined {
  if (verdict === 'verified') return 'verified';
  if (verdict === 'acknowledged' && doneWhen === 'verified_or_acknowledged') return 'acknowledged';
  return undefined;
}
