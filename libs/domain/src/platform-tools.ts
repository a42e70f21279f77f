// Tools the platform offers on top of a device's own catalog. `system.reboot` is the xiaozhi `system` message
// `{"type":"system","command":"reboot"}` (xiaozhi §2.2), gated exactly like `self.reboot` (DESIGN §3).
export const SYSTEM_REBOOT_TOOL = 'system.reboot';

export const PLATFORM_TOOLS = [
  {
    name: SYSTEM_REBOOT_TOOL,
    description: 'Reboot the device through the protocol-level system message (no MCP reply is ever sent).',
    inputSchema: { type: 'object', properties: {} },
    userOnly: true,
  },
] as const;
