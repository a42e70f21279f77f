import { cjson, type CJsonValue } from '../../json/cjson-value';
import { printCJson } from '../../json/cjson-print';
import { assertNever } from '../../result';
import type { ToolDefinition, ToolProperty } from '../tool-definition';

// A simulated fleet pages tools/list on every connect; definitions are data and are never mutated after use.
const cache = new WeakMap<ToolDefinition, string>();

/**
 * McpTool::to_json(), byte for byte: name, description, inputSchema {type, properties, required (only the
 * properties without a default; omitted when empty)}, then annotations for user-only tools.
 */
export function firmwareToolJson(tool: ToolDefinition): string {
  let json = cache.get(tool);
  if (json === undefined) {
    json = printCJson(firmwareToolCJson(tool));
    cache.set(tool, json);
  }
  return json;
}

export function firmwareToolCJson(tool: ToolDefinition): CJsonValue {
  const required = tool.properties.filter((p) => p.default === undefined).map((p) => cjson.string(p.name));
  const inputSchema: [string, CJsonValue][] = [
    ['type', cjson.string('object')],
    ['properties', cjson.object(tool.properties.map((p) => [p.name, firmwarePropertyCJson(p)]))],
  ];
  if (required.length > 0) inputSchema.push(['required', cjson.array(required)]);
  const members: [string, CJsonValue][] = [
    ['name', cjson.string(tool.name)],
    ['description', cjson.string(tool.description)],
    ['inputSchema', cjson.object(inputSchema)],
  ];
  if (tool.userOnly) {
    members.push(['annotations', cjson.object([['audience', cjson.array([cjson.string('user')])]])]);
  }
  return cjson.object(members);
}

/** Property::to_json(): type, then default, then minimum and maximum for integers. */
export function firmwarePropertyCJson(property: ToolProperty): CJsonValue {
  const members: [string, CJsonValue][] = [['type', cjson.string(property.type)]];
  switch (property.type) {
    case 'boolean':
      if (property.default !== undefined) members.push(['default', cjson.bool(property.default)]);
      break;
    case 'integer':
      if (property.default !== undefined) members.push(['default', cjson.number(property.default)]);
      if (property.minimum !== undefined) members.push(['minimum', cjson.number(property.minimum)]);
      if (property.maximum !== undefined) members.push(['maximum', cjson.number(property.maximum)]);
      break;
    case 'string':
      if (property.default !== undefined) members.push(['default', cjson.string(property.default)]);
      break;
    default:
      return assertNever(property, 'property');
  }
  return cjson.object(members);
}
