import { cjsonStringValue, getItemCaseInsensitive } from '../../json/cjson-lookup';
import type { CJsonValue } from '../../json/cjson-value';
import type { ToolDefinition } from '../tool-definition';
import type { ArgumentNote } from './argument-note';
import { bindFirmwareArguments, type BoundArguments } from './bind-arguments';
import { FIRMWARE_ERRORS } from './errors';

export type FirmwareToolCall =
  | {
      readonly kind: 'call';
      readonly tool: ToolDefinition;
      readonly arguments: BoundArguments;
      readonly notes: readonly ArgumentNote[];
    }
  | {
      readonly kind: 'error';
      readonly message: string;
      readonly tool?: ToolDefinition;
      readonly notes: readonly ArgumentNote[];
    };

/**
 * xiaozhi §3.3: params must be an object, name a string, arguments (when present) an object, and the name must
 * match a registered tool exactly (user-only tools included); then the arguments are bound.
 */
export function prepareFirmwareToolCall(
  tools: readonly ToolDefinition[],
  params: CJsonValue | undefined,
): FirmwareToolCall {
  if (params?.kind !== 'object') return { kind: 'error', message: FIRMWARE_ERRORS.missingParams, notes: [] };
  const name = cjsonStringValue(getItemCaseInsensitive(params, 'name'));
  if (name === undefined) return { kind: 'error', message: FIRMWARE_ERRORS.missingName, notes: [] };
  const args = getItemCaseInsensitive(params, 'arguments');
  if (args !== undefined && args.kind !== 'object') {
    return { kind: 'error', message: FIRMWARE_ERRORS.invalidArguments, notes: [] };
  }
  // DoToolCall: std::find_if, so the first tool of that name (AddTool already refuses duplicates).
  const tool = tools.find((t) => t.name === name);
  if (!tool) return { kind: 'error', message: FIRMWARE_ERRORS.unknownTool(name), notes: [] };
  const binding = bindFirmwareArguments(tool, args);
  if (binding.outcome.kind === 'rejected') {
    return { kind: 'error', message: binding.outcome.message, tool, notes: binding.notes };
  }
  return { kind: 'call', tool, arguments: binding.outcome.values, notes: binding.notes };
}
