import {
  assertNever,
  durableIdOfListenAi,
  encodeMcpRequest,
  listenAiLinkIds,
  listenAiRequestId,
  type Dialect,
  type McpEncodeError,
  type McpId,
  type McpRequest,
  type Result,
} from '@fleet/protocol';

/**
 * The only place the orchestrator's MCP link tells the dialects apart: how a request goes on the wire, and which
 * durable id a reply's id stands for. Everything else pairs, times and records by the durable number.
 */
export function encodeRequestFor(
  device: { dialect: Dialect; connectionId: string | undefined },
  request: McpRequest & { id: number },
): Result<string, McpEncodeError> {
  switch (device.dialect) {
    case 'xiaozhi':
      // xiaozhi §2.2: the device does not check session_id on mcp messages; "" is what it sends while idle.
      return encodeMcpRequest({ dialect: 'xiaozhi', sessionId: '' }, request);
    case 'listenai':
      // DESIGN §3: ListenAI ids are strings; cid/sid name the link the request goes out on.
      return encodeMcpRequest(
        { dialect: 'listenai', ...listenAiLinkIds(device.connectionId) },
        { ...request, id: listenAiRequestId(request.id) },
      );
    default:
      return assertNever(device.dialect, 'dialect');
  }
}

/** The durable id a reply's id stands for; undefined for one the platform never sent in this dialect. */
export function durableIdOf(dialect: Dialect, id: McpId | undefined): number | undefined {
  switch (dialect) {
    case 'xiaozhi':
      return typeof id === 'number' ? id : undefined;
    case 'listenai':
      return typeof id === 'string' ? durableIdOfListenAi(id) : undefined;
    default:
      return assertNever(dialect, 'dialect');
  }
}

/** The id as the device saw it (recorded beside the durable number where they differ). */
export function wireIdFor(dialect: Dialect, durableId: number): McpId {
  return dialect === 'listenai' ? listenAiRequestId(durableId) : durableId;
}
