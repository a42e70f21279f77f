/** The firmware's error texts, verbatim (xiaozhi §3.1–§3.3, main/mcp_server.{h,cc}). */
export const FIRMWARE_ERRORS = {
  missingParams: 'Missing params',
  missingName: 'Missing name',
  invalidArguments: 'Invalid arguments',
  unknownTool: (name: string) => `Unknown tool: ${name}`,
  missingValidArgument: (property: string) => `Missing valid argument: ${property}`,
  belowMinimum: (minimum: number) => `Value is below minimum allowed: ${minimum}`,
  exceedsMaximum: (maximum: number) => `Value exceeds maximum allowed: ${maximum}`,
  methodNotImplemented: (method: string) => `Method not implemented: ${method}`,
  // xiaozhi §3.2: the name is empty when the cursor matched nothing that could be listed.
  payloadSizeLimit: (toolName: string) => `Failed to add tool ${toolName} because of payload size limit`,
} as const;
