import type { ReadbackSpec } from './tool-profiles';

/** A tool as a catalog declares it, as far as pairing needs. */
export interface PairableTool {
  name: string;
  inputSchema: unknown;
}

/** A setter and a reader of the same property, seen in one catalog: proposed to a person, never applied. */
export interface ReadbackPairing {
  tool: string;
  readback: ReadbackSpec;
  why: string;
}

const SWITCHES: Readonly<Record<string, boolean>> = { turn_on: true, turn_off: false };
const SWITCH_READERS = ['get_power', 'get_state'];

/**
 * The pairings a catalog shows by its names alone (DESIGN §5 for devices without `self.get_device_status`):
 * `…set_X` with `…get_X` of the same prefix (the target is the setter's one argument, or the one named X or
 * `value`), and `…turn_on`/`…turn_off` with `…get_power`/`…get_state` (the target is true/false). Where in the
 * reader's answer the value sits is a guess (the argument's name for an object answer): the person accepting
 * sees it and may change it.
 */
export function proposeReadbacks(tools: readonly PairableTool[]): ReadbackPairing[] {
  const names = new Set(tools.map((t) => t.name));
  const pairings: ReadbackPairing[] = [];
  for (const tool of tools) {
    const cut = tool.name.lastIndexOf('.') + 1;
    const prefix = tool.name.slice(0, cut);
    const last = tool.name.slice(cut);
    const on = SWITCHES[last];
    if (on !== undefined) {
      const reader = SWITCH_READERS.map((r) => prefix + r).find((r) => names.has(r));
      if (reader)
        pairings.push({
          tool: tool.name,
          readback: { tool: reader, arguments: {}, path: '', value: on, settleMs: 0 },
          why: `${tool.name} switches what ${reader} reads: it should read ${String(on)} after it`,
        });
      continue;
    }
    const property = /^set_(.+)$/.exec(last)?.[1];
    const reader = property === undefined ? undefined : `${prefix}get_${property}`;
    if (!reader || !names.has(reader)) continue;
    const argument = targetArgument(tool.inputSchema, property!);
    if (!argument) continue;
    pairings.push({
      tool: tool.name,
      readback: { tool: reader, arguments: {}, path: argument, argument, settleMs: 0 },
      why: `${tool.name} and ${reader} name the same property (${property}); the reader's answer is taken to carry "${argument}"`,
    });
  }
  return pairings;
}

function targetArgument(schema: unknown, property: string): string | undefined {
  const properties =
    typeof schema === 'object' && schema !== null
      ? (schema as { properties?: unknown }).properties
      : undefined;
  if (typeof properties !== 'object' || properties === null) return undefined;
  const keys = Object.keys(properties);
  if (keys.length === 1) return keys[0];
  return [property, 'value'].find((k) => keys.includes(k));
}
