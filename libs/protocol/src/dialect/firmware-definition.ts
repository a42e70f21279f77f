import { toolDefinitionSchema, type ToolDefinition } from '../mcp/tool-definition';
import { err, ok, type ProtocolError, type Result } from '../result';
import { describeZodError } from '../zod-issues';
import type { ListedTool } from './tools-list-page';

/**
 * A listed tool as the firmware's own definition, so bindFirmwareArguments can predict what a xiaozhi device will
 * do with a set of arguments. Refused when the schema uses anything the firmware's Property cannot express.
 */
export function firmwareDefinitionOf(
  tool: ListedTool,
): Result<ToolDefinition, ProtocolError<'not_firmware_schema'>> {
  const candidate = {
    name: tool.name,
    description: tool.description,
    userOnly: tool.userOnly,
    properties: tool.properties.map((p) => ({
      name: p.name,
      type: p.type,
      ...(p.default !== undefined ? { default: p.default } : {}),
      ...(p.minimum !== undefined ? { minimum: p.minimum } : {}),
      ...(p.maximum !== undefined ? { maximum: p.maximum } : {}),
    })),
  };
  const parsed = toolDefinitionSchema.safeParse(candidate);
  if (!parsed.success) return err({ kind: 'not_firmware_schema', message: describeZodError(parsed.error) });
  return ok(parsed.data);
}
