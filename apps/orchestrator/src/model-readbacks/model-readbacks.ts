import type { Recipe } from '../verification/recipes';
import type { ModelReadback } from './model-readback.schema';

/** What identifies a device's model: its registered board, or the server name discovery read. */
export interface DeviceModel {
  board: string | null;
  catalog?: { serverName?: string | undefined } | undefined;
}

/**
 * The configured readback recipe of a tool on this device's model, or undefined (the built-in recipes then
 * decide; a tool with none is `acknowledged`, its effect unverifiable). A configured entry wins over a built-in
 * one: a device of that model may not have the built-in's read tool at all.
 */
export function modelRecipeFor(
  readbacks: readonly ModelReadback[],
  device: DeviceModel,
  tool: string,
): Extract<Recipe, { kind: 'readback' }> | undefined {
  const models = [device.board, device.catalog?.serverName].filter((m): m is string => !!m);
  const entry = readbacks.find((r) => r.tool === tool && models.includes(r.model));
  if (!entry) return undefined;
  return {
    kind: 'readback',
    path: entry.path === '' ? [] : entry.path.split('.'),
    argument: entry.argument,
    settleMs: entry.settleMs,
    read: entry.read,
  };
}
