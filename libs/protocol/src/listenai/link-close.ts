// RFC 6455 §7.4.2: codes 4000-4999 are the application's. A refused or ended link says why in the close frame
// (reason text at most 123 bytes), so a device's log and the platform's metrics name the same problem.
export const LINK_CLOSE = {
  /** The upgrade request lacked what the link needs (path, param, MCP opt-in). */
  bad_request: { code: 4400, reason: 'bad link request' },
  no_mcp_opt_in: { code: 4400, reason: 'no MCP opt-in: param must carry {"mcp":true}' },
  no_token: { code: 4401, reason: 'no device token' },
  unknown_token: { code: 4401, reason: 'unknown device token' },
  token_revoked: { code: 4403, reason: 'device token revoked' },
  device_revoked: { code: 4403, reason: 'device revoked' },
  device_decommissioned: { code: 4403, reason: 'device decommissioned' },
  device_not_active: { code: 4403, reason: 'device not active' },
  not_listenai: { code: 4403, reason: 'device is not registered as a ListenAI device' },
  takeover: { code: 4409, reason: 'a newer link for this device took over' },
  rate_limit: { code: 4429, reason: 'message rate limit exceeded' },
  /** RFC 6455 1009: ws sends it itself when a frame is over maxPayload. */
  frame_too_large: { code: 1009, reason: 'frame too large' },
  binary_frame: { code: 1003, reason: 'text frames only' },
  /** RFC 6455 1013 Try Again Later: the device registry could not be read. */
  registry_unavailable: { code: 1013, reason: 'registry unavailable, try again later' },
  /** RFC 6455 1001 Going Away: the replica stops; the device reconnects (to another replica). */
  broker_shutdown: { code: 1001, reason: 'broker shutting down, reconnect' },
} as const;

export type LinkCloseKind = keyof typeof LINK_CLOSE;
