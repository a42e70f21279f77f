import { membersMatching } from '../../json/cjson-lookup';
import type { CJsonValue } from '../../json/cjson-value';
import { assertNever } from '../../result';
import type { FirmwareArgumentValue, ToolDefinition, ToolProperty } from '../tool-definition';
import type { ArgumentNote } from './argument-note';
import { FIRMWARE_ERRORS } from './errors';

export type BoundArguments = Readonly<Record<string, FirmwareArgumentValue>>;

export interface ArgumentBinding {
  readonly outcome:
    | { readonly kind: 'bound'; readonly values: BoundArguments }
    | { readonly kind: 'rejected'; readonly message: string; readonly property: string };
  readonly notes: readonly ArgumentNote[];
}

/**
 * xiaozhi §3.3, DoToolCall's loop over the declared properties in order: the first member whose key matches
 * case-insensitively is the only one looked at; a wrong type counts as absent; a default fills in silently;
 * integers are cJSON's valueint (truncated, saturated) and then range-checked; undeclared keys are ignored.
 * The first failing property decides the error, as in the firmware.
 */
export function bindFirmwareArguments(tool: ToolDefinition, args: CJsonValue | undefined): ArgumentBinding {
  const notes: ArgumentNote[] = [];
  const values: Record<string, FirmwareArgumentValue> = {};
  notes.push(...undeclaredKeys(tool, args));
  for (const property of tool.properties) {
    const matches = membersMatching(args, property.name);
    const first = matches[0];
    for (const dup of matches.slice(1)) {
      notes.push({
        kind: 'duplicate_ignored',
        property: property.name,
        key: dup.key,
        keptKey: first?.key ?? '',
      });
    }
    if (first && first.key !== property.name) {
      notes.push({ kind: 'key_case_differs', property: property.name, key: first.key });
    }
    const taken = first ? take(property, first.key, first.value, notes) : undefined;
    if (taken !== undefined) {
      const rangeError = outOfRange(property, taken);
      if (rangeError) {
        return { outcome: { kind: 'rejected', message: rangeError, property: property.name }, notes };
      }
      defineValue(values, property.name, taken);
      continue;
    }
    if (property.default === undefined) {
      return {
        outcome: {
          kind: 'rejected',
          message: FIRMWARE_ERRORS.missingValidArgument(property.name),
          property: property.name,
        },
        notes,
      };
    }
    notes.push({
      kind: 'default_used',
      property: property.name,
      value: property.default,
      because: first ? 'wrong_type' : 'absent',
    });
    defineValue(values, property.name, property.default);
  }
  return { outcome: { kind: 'bound', values }, notes };
}

function take(
  property: ToolProperty,
  key: string,
  value: CJsonValue,
  notes: ArgumentNote[],
): FirmwareArgumentValue | undefined {
  const wrongType = (): undefined => {
    notes.push({
      kind: 'wrong_type',
      property: property.name,
      key,
      expected: property.type,
      sent: value.kind,
    });
    return undefined;
  };
  switch (property.type) {
    case 'boolean':
      return value.kind === 'bool' ? value.value : wrongType();
    case 'string':
      return value.kind === 'string' ? value.value : wrongType();
    case 'integer':
      if (value.kind !== 'number') return wrongType();
      if (value.valueint !== value.valuedouble) {
        notes.push({
          kind: 'integer_truncated',
          property: property.name,
          key,
          sent: value.valuedouble,
          used: value.valueint,
        });
      }
      return value.valueint;
    default:
      return assertNever(property, 'property');
  }
}

// Property::set_value<int>: minimum first, then maximum; only for values that came from the request.
function outOfRange(property: ToolProperty, value: FirmwareArgumentValue): string | undefined {
  if (property.type !== 'integer' || typeof value !== 'number') return undefined;
  if (property.minimum !== undefined && value < property.minimum) {
    return FIRMWARE_ERRORS.belowMinimum(property.minimum);
  }
  if (property.maximum !== undefined && value > property.maximum) {
    return FIRMWARE_ERRORS.exceedsMaximum(property.maximum);
  }
  return undefined;
}

function undeclaredKeys(tool: ToolDefinition, args: CJsonValue | undefined): ArgumentNote[] {
  if (args?.kind !== 'object') return [];
  const declared = new Set(tool.properties.flatMap((p) => membersMatching(args, p.name).map((m) => m.index)));
  return args.members.flatMap((m, index) =>
    declared.has(index) ? [] : [{ kind: 'undeclared_ignored' as const, key: m.key }],
  );
}

function defineValue(
  target: Record<string, FirmwareArgumentValue>,
  name: string,
  value: FirmwareArgumentValue,
): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: false, configurable: false });
}
