import type { ListedTool } from '@fleet/protocol';

export interface DerivedRule {
  tool: string;
  requires: string;
  evidence: string;
}

// xiaozhi §3.4: set_volume says "If the current volume is unknown, you must call `self.get_device_status` tool
// first and then call this tool." Nothing on the device enforces it (seed 003); the platform does.
const MUST_CALL_FIRST = /must\s+call\s+`([^`]+)`(?:\s+tool)?\s+first/i;

/** Rules "B needs a fresh result of A" read from tool descriptions; only tools the catalog really has count. */
export function deriveOrderingRules(tools: readonly ListedTool[]): DerivedRule[] {
  const names = new Set(tools.map((t) => t.name));
  const rules: DerivedRule[] = [];
  for (const tool of tools) {
    const match = MUST_CALL_FIRST.exec(tool.description);
    const requires = match?.[1];
    if (!requires || requires === tool.name || !names.has(requires)) continue;
    const sentence = tool.description.slice(
      Math.max(0, (match.index ?? 0) - 60),
      (match.index ?? 0) + match[0].length,
    );
    rules.push({ tool: tool.name, requires, evidence: sentence.trim() });
  }
  return rules;
}
