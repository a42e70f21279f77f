import { validateToolName } from '@modelcontextprotocol/sdk/shared/toolNameValidation.js';

/**
 * What discovery notes about a tool's name (stored with the tool, shown in the API and the console):
 * - `outside_mcp_names`: not 1–128 characters of A–Z a–z 0–9 `_` `-` `.`, the set MCP 2025-11-25 recommends
 *   (server/tools "Tool names"; `/`, allowed by an earlier draft, is not in it);
 * - `bidi_control`: holds a character that reorders the text around it (U+202A–202E, U+2066–2069, U+200E,
 *   U+200F, U+061C), so a name can be shown as another (`self.sec.\u202egnp.exe` reads as `self.sec.exe.png`);
 * - `invisible_character`: holds another invisible format character (a zero-width space, a soft hyphen…),
 *   so two names can look the same.
 */
export const TOOL_NAME_FLAGS = ['outside_mcp_names', 'bidi_control', 'invisible_character'] as const;
export type ToolNameFlag = (typeof TOOL_NAME_FLAGS)[number];

/** Unicode's bidirectional formatting characters: embeddings and overrides, isolates, marks. */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;

export function toolNameFlags(name: string): ToolNameFlag[] {
  const flags: ToolNameFlag[] = [];
  if (!validateToolName(name).isValid) flags.push('outside_mcp_names');
  if (BIDI_CONTROLS.test(name)) flags.push('bidi_control');
  if (/\p{Cf}/u.test(name.replace(new RegExp(BIDI_CONTROLS.source, 'gu'), '')))
    flags.push('invisible_character');
  return flags;
}
