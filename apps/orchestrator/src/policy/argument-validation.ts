import {
  bindFirmwareArguments,
  INT32_MAX,
  INT32_MIN,
  toCJson,
  type ArgumentNote,
  type ListedTool,
  type ToolDefinition,
} from '@fleet/protocol';

import { schemaErrors } from './schema-validation';

export interface ArgumentCheck {
  ok: boolean;
  errors: string[];
  /** What the firmware itself would do with these arguments (DESIGN §4: recorded in the parameters row). */
  firmwareWouldDo: ArgumentNote[];
  firmwareOutcome?: { kind: 'bound' } | { kind: 'rejected'; message: string };
}

// xiaozhi §3.4: upgrade_firmware's `url` has the description text as its default, so a call without it
// "downloads" that text. The schema says optional; the platform requires it.
const REQUIRED_DESPITE_DEFAULT: Readonly<Record<string, readonly string[]>> = {
  'self.upgrade_firmware': ['url'],
};

/**
 * Strict validation against the device's own inputSchema (DESIGN §4), the whole of it (schema-validation.ts). Whatever the firmware would silently
 * coerce is refused: a fraction for an integer, a wrong type (absent to the firmware, so a default would be used),
 * an undeclared name, or a name that differs from a declared one only in case (the firmware matches names
 * case-insensitively and the first duplicate wins, so `{"Volume":80,"volume":30}` would set 80).
 */
export function checkArguments(
  tool: ListedTool,
  firmware: ToolDefinition | undefined,
  args: unknown,
): ArgumentCheck {
  const errors: string[] = [];
  const firmwareView = firmware ? predict(firmware, args) : { firmwareWouldDo: [] };
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { ok: false, errors: ['arguments must be a JSON object'], ...firmwareView };
  }
  const given = args as Record<string, unknown>;
  const declared = new Map(tool.properties.map((p) => [p.name, p]));
  for (const key of Object.keys(given)) {
    if (declared.has(key)) continue;
    const twin = [...declared.keys()].find((name) => name.toLowerCase() === key.toLowerCase());
    errors.push(
      twin
        ? `argument "${key}" differs from "${twin}" only in case: the firmware would take it as "${twin}"`
        : `argument "${key}" is not declared by the tool`,
    );
  }
  const mustBeGiven = new Set(REQUIRED_DESPITE_DEFAULT[tool.name] ?? []);
  for (const property of tool.properties) {
    const value = given[property.name];
    if (value === undefined) {
      if (property.required || mustBeGiven.has(property.name))
        errors.push(`argument "${property.name}" is missing`);
      continue;
    }
    errors.push(...typeErrors(property.name, property.type, value, property.minimum, property.maximum));
  }
  // The firmware's quirks said nothing: what else the device's whole schema declares (enum, pattern, nesting…).
  if (errors.length === 0) errors.push(...schemaErrors(tool.inputSchema, given));
  return { ok: errors.length === 0, errors, ...firmwareView };
}

function typeErrors(
  name: string,
  type: string,
  value: unknown,
  minimum?: number,
  maximum?: number,
): string[] {
  switch (type) {
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value))
        return [`argument "${name}" must be an integer, got ${describe(value)}`];
      if (!Number.isInteger(value))
        return [
          `argument "${name}" must be an integer: the firmware would truncate ${value} to ${Math.trunc(value)}`,
        ];
      if (value < INT32_MIN || value > INT32_MAX)
        return [`argument "${name}" does not fit 32 bits: the firmware would saturate it`];
      if (minimum !== undefined && value < minimum)
        return [`argument "${name}" is below its minimum ${minimum}`];
      if (maximum !== undefined && value > maximum)
        return [`argument "${name}" is above its maximum ${maximum}`];
      return [];
    case 'number':
      // ListenAI tools declare `number` (seed 002's set_volume): any finite number, within its bounds.
      if (typeof value !== 'number' || !Number.isFinite(value))
        return [`argument "${name}" must be a number, got ${describe(value)}`];
      if (minimum !== undefined && value < minimum)
        return [`argument "${name}" is below its minimum ${minimum}`];
      if (maximum !== undefined && value > maximum)
        return [`argument "${name}" is above its maximum ${maximum}`];
      return [];
    case 'boolean':
      return typeof value === 'boolean'
        ? []
        : [`argument "${name}" must be a boolean, got ${describe(value)}`];
    case 'string':
      return typeof value === 'string' ? [] : [`argument "${name}" must be a string, got ${describe(value)}`];
    default:
      return [];
  }
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

function predict(
  firmware: ToolDefinition,
  args: unknown,
): Pick<ArgumentCheck, 'firmwareWouldDo' | 'firmwareOutcome'> {
  const binding = bindFirmwareArguments(firmware, toCJson(args));
  return {
    firmwareWouldDo: [...binding.notes],
    firmwareOutcome:
      binding.outcome.kind === 'bound'
        ? { kind: 'bound' }
        : { kind: 'rejected', message: binding.outcome.message },
  };
}
