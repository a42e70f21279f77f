import type { ToolDefinition } from '@fleet/protocol';

const RELAY_NAME = /^self\.board\.relay_(\d+)\.set$/;

/** The vectors' stub board tool (vectors/README.md): one boolean `on`, no default. */
export function relayTool(n: number): ToolDefinition {
  return {
    name: `self.board.relay_${String(n).padStart(2, '0')}.set`,
    description: `Switch relay ${n} of the board on or off. Use it when the user asks to switch channel ${n}; the relay keeps its state across reboots.`,
    properties: [{ name: 'on', type: 'boolean' }],
    userOnly: false,
  };
}

const cache = new Map<number, readonly ToolDefinition[]>();

/** `count` relay tools, shared by every device that asks for the same count. */
export function relayTools(count: number): readonly ToolDefinition[] {
  let tools = cache.get(count);
  if (!tools) {
    tools = Object.freeze(Array.from({ length: count }, (_, n) => relayTool(n)));
    cache.set(count, tools);
  }
  return tools;
}

export function isRelayTool(name: string): boolean {
  return RELAY_NAME.test(name);
}
