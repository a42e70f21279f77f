import { utf8ByteLength } from '../../json/utf8';
import type { ToolDefinition } from '../tool-definition';
import { FIRMWARE_ERRORS } from './errors';
import { firmwareToolJson } from './tool-json';

/** McpServer::GetToolsList max_payload_size. */
export const TOOLS_LIST_PAYLOAD_LIMIT = 8000;
// The firmware keeps this much room for the closing `]}` and a nextCursor.
const HEADROOM = 30;

export type FirmwareToolsListOutcome =
  | {
      readonly kind: 'page';
      readonly resultJson: string;
      readonly toolNames: readonly string[];
      readonly nextCursor?: string;
    }
  | { readonly kind: 'error'; readonly message: string; readonly nextCursor: string };

/**
 * xiaozhi §3.2, exactly: skip to the tool named `cursor` (inclusive), skip user-only tools unless asked, add tools
 * while `bytes(json) + bytes(tool + ",") + 30 <= 8000`; the first tool that does not fit becomes nextCursor.
 * The cursor is inserted into the result unescaped, as the firmware does.
 */
export function firmwareToolsListPage(
  tools: readonly ToolDefinition[],
  cursor: string,
  withUserTools: boolean,
): FirmwareToolsListOutcome {
  let json = '{"tools":[';
  let size = utf8ByteLength(json);
  let found = cursor === '';
  let nextCursor = '';
  const toolNames: string[] = [];
  for (const tool of tools) {
    if (!found) {
      if (tool.name !== cursor) continue;
      found = true;
    }
    if (!withUserTools && tool.userOnly) continue;
    const toolJson = `${firmwareToolJson(tool)},`;
    const toolSize = utf8ByteLength(toolJson);
    if (size + toolSize + HEADROOM > TOOLS_LIST_PAYLOAD_LIMIT) {
      nextCursor = tool.name;
      break;
    }
    json += toolJson;
    size += toolSize;
    toolNames.push(tool.name);
  }
  if (json.endsWith(',')) json = json.slice(0, -1);
  if (json.endsWith('[') && tools.length > 0) {
    return { kind: 'error', message: FIRMWARE_ERRORS.payloadSizeLimit(nextCursor), nextCursor };
  }
  if (nextCursor === '') return { kind: 'page', resultJson: `${json}]}`, toolNames };
  return { kind: 'page', resultJson: `${json}],"nextCursor":"${nextCursor}"}`, toolNames, nextCursor };
}
