import type { CallOrigin } from './calls';
import { confirmationAskedIn } from './confirmation';
import { SYSTEM_REBOOT_TOOL } from './platform-tools';

/** A tool as a catalog row holds it: what the device declared. */
export interface ToolFacts {
  name: string;
  description: string;
  /** `annotations.audience` contains "user" (xiaozhi §3.2). */
  userOnly: boolean;
  annotations?: unknown;
}

/**
 * An operator's marking of a tool on a device: `true` makes it sensitive, `false` lifts the default a warning in
 * its description gave it (a device's own user-only declaration stays: the firmware said so).
 */
export type SensitiveMarking = boolean | undefined;

export interface Sensitivity {
  sensitive: boolean;
  /** Why, in words the catalog shows; undefined for an open tool. */
  reason: string | undefined;
  /**
   * Why the tool is sensitive by default (DESIGN §4: confirmation asked in its description, or destructiveHint),
   * whether or not an operator lifted that; undefined when nothing makes it so.
   */
  byDefault: string | undefined;
}

function annotation(tool: ToolFacts, key: string): unknown {
  const a = tool.annotations;
  return typeof a === 'object' && a !== null ? (a as Record<string, unknown>)[key] : undefined;
}

/** `annotations.readOnlyHint` as the device declared it. */
export function declaresReadOnly(tool: ToolFacts): boolean {
  return annotation(tool, 'readOnlyHint') === true;
}

/** Why a tool is sensitive by default, whatever an operator made of it (DESIGN §4). */
function defaultSensitivity(tool: ToolFacts): string | undefined {
  // Firmware writes some warnings only in prose ("**CAUTION** You must ask the user to confirm").
  const phrase = confirmationAskedIn(tool.description);
  if (phrase !== undefined) return `its description asks for the user's confirmation ("${phrase}")`;
  if (annotation(tool, 'destructiveHint') === true)
    return 'the device declares it destructive (destructiveHint)';
  return undefined;
}

/** Whether a tool is kept from the LLM and agents and needs a person's approval, and why (DESIGN §4). */
export function toolSensitivity(tool: ToolFacts, marking: SensitiveMarking): Sensitivity {
  const byDefault = defaultSensitivity(tool);
  // The device declares audience "user"; a platform reboot is gated exactly like self.reboot (DESIGN §3).
  if (tool.name === SYSTEM_REBOOT_TOOL || tool.userOnly)
    return { sensitive: true, reason: 'user-only tool', byDefault };
  if (marking === true) return { sensitive: true, reason: 'an operator marked it sensitive', byDefault };
  if (byDefault === undefined) return { sensitive: false, reason: undefined, byDefault };
  if (marking === false)
    return { sensitive: false, reason: `an operator lifted the default (${byDefault})`, byDefault };
  return { sensitive: true, reason: `sensitive by default: ${byDefault}`, byDefault };
}

export type ToolAccess =
  | { kind: 'allowed'; reason: string }
  | { kind: 'needs_approval'; reason: string }
  | { kind: 'refused'; reason: string };

/**
 * The one decision of who may call a tool (DESIGN §4, §8): a sensitive tool never reaches the voice assistant
 * (refused even under a guessed name); it waits for another person's approval when a person, a campaign or an
 * outside agent asks (an agent acts for the person who owns its credential, and never decides for itself: what
 * its client answers is that person's own confirmation, not the approval); the platform on its own runs only
 * reads.
 */
export function toolAccess(
  origin: CallOrigin,
  tool: ToolFacts,
  marking: SensitiveMarking,
  readOnly: boolean,
): ToolAccess {
  const { sensitive, reason } = toolSensitivity(tool, marking);
  if (!sensitive) {
    if (origin === 'system' && !readOnly && !declaresReadOnly(tool))
      return { kind: 'refused', reason: 'the platform runs only reads on its own' };
    return { kind: 'allowed', reason: reason ?? 'an open tool' };
  }
  switch (origin) {
    case 'operator':
    case 'campaign':
    case 'agent':
      return { kind: 'needs_approval', reason: reason! };
    case 'llm':
      return { kind: 'refused', reason: `${reason!}: the voice assistant may not call it` };
    case 'system':
      return { kind: 'refused', reason: `${reason!}: the platform runs only reads on its own` };
  }
}

/**
 * What the LLM and outside agents are offered as tools they may simply call (an agent may still ask for a
 * sensitive one by name, which then waits for a person's approval).
 */
export function visibleToMachines(tool: ToolFacts, marking: SensitiveMarking): boolean {
  return !toolSensitivity(tool, marking).sensitive;
}
