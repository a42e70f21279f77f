import { SYSTEM_REBOOT_TOOL } from '@fleet/domain';

/** How a tool's effect is checked (DESIGN §5; extensible: add a line here). */
export type Recipe =
  | {
      kind: 'readback';
      path: readonly string[];
      /** The argument whose value the readback must show; absent when the target is the constant `value`. */
      argument?: string;
      value?: unknown;
      settleMs: number;
      /** The read tool; self.get_device_status unless a model's readback says otherwise. */
      read?: { tool: string; arguments: Record<string, unknown> };
      /** The firmware answers "false" when it did not do it (DESIGN §5: set_theme with an unknown theme). */
      falseIsError?: boolean;
    }
  | { kind: 'reboot'; falseIsError?: boolean }
  | { kind: 'upgrade'; falseIsError?: boolean }
  | { kind: 'read_only' }
  | { kind: 'unverifiable'; falseIsError?: boolean };

/** What makes a tool a read tool besides this table: the device's own hint, an operator's marking. */
export interface ReadToolHints {
  /** `annotations.readOnlyHint` as the device declared it in tools/list. */
  readOnlyHint?: unknown;
  /** An operator marked the tool read-only for this device. */
  markedReadOnly?: boolean;
}

const RECIPES: Readonly<Record<string, Recipe>> = {
  'self.audio_speaker.set_volume': {
    kind: 'readback',
    path: ['audio_speaker', 'volume'],
    argument: 'volume',
    settleMs: 0,
  },
  // xiaozhi §3.4: the backlight ramps 1 % per 5 ms: re-read until it settles, up to ~0.5 s.
  'self.screen.set_brightness': {
    kind: 'readback',
    path: ['screen', 'brightness'],
    argument: 'brightness',
    settleMs: 600,
  },
  'self.screen.set_theme': {
    kind: 'readback',
    path: ['screen', 'theme'],
    argument: 'theme',
    settleMs: 0,
    falseIsError: true,
  },
  // xiaozhi §3.4: both return false when the firmware refuses to start (no network, another OTA running).
  'self.reboot': { kind: 'reboot', falseIsError: true },
  [SYSTEM_REBOOT_TOOL]: { kind: 'reboot' },
  'self.upgrade_firmware': { kind: 'upgrade', falseIsError: true },
  'self.get_device_status': { kind: 'read_only' },
  'self.get_system_info': { kind: 'read_only' },
  'self.screen.get_info': { kind: 'read_only' },
  // The esp-hi board's light: "true"/"false" is whether it is on.
  'self.light.get_power': { kind: 'read_only' },
};

/**
 * A tool's recipe. What is a read tool is explicit (DESIGN §1): this table, the device's `readOnlyHint`, an
 * operator's marking; a name that merely looks like a getter is not enough.
 */
export function recipeFor(tool: string, hints: ReadToolHints = {}): Recipe {
  const known = RECIPES[tool];
  if (known) return known;
  return hints.readOnlyHint === true || hints.markedReadOnly === true
    ? { kind: 'read_only' }
    : { kind: 'unverifiable' };
}

/** What a readback must observe for this call: the named argument's value, or the recipe's constant. */
export function readbackTarget(
  recipe: Extract<Recipe, { kind: 'readback' }>,
  args: Readonly<Record<string, unknown>>,
): unknown {
  return recipe.argument === undefined ? recipe.value : args[recipe.argument];
}

/** The value at a path of get_device_status' JSON (which arrives as text inside the tool result). */
export function readStatusValue(statusText: string, path: readonly string[]): unknown {
  let node: unknown;
  try {
    node = JSON.parse(statusText);
  } catch {
    return undefined;
  }
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
