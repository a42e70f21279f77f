import { SYSTEM_REBOOT_TOOL } from '@fleet/domain';

/** How a tool's effect is checked (DESIGN §5; extensible: add a line here). */
export type Recipe =
  | {
      kind: 'readback';
      path: readonly string[];
      argument: string;
      settleMs: number;
      /** The read tool; self.get_device_status unless a model's readback says otherwise. */
      read?: { tool: string; arguments: Record<string, unknown> };
    }
  | { kind: 'reboot' }
  | { kind: 'upgrade' }
  | { kind: 'read_only' }
  | { kind: 'unverifiable' };

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
  'self.screen.set_theme': { kind: 'readback', path: ['screen', 'theme'], argument: 'theme', settleMs: 0 },
  'self.reboot': { kind: 'reboot' },
  [SYSTEM_REBOOT_TOOL]: { kind: 'reboot' },
  'self.upgrade_firmware': { kind: 'upgrade' },
  'self.get_device_status': { kind: 'read_only' },
  'self.get_system_info': { kind: 'read_only' },
  'self.screen.get_info': { kind: 'read_only' },
};

export function recipeFor(tool: string): Recipe {
  const known = RECIPES[tool];
  if (known) return known;
  // A getter changes nothing: its reply is the effect.
  const last = tool.split('.').at(-1) ?? '';
  return last.startsWith('get_') ? { kind: 'read_only' } : { kind: 'unverifiable' };
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
