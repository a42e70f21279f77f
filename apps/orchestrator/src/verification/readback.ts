import { mcpRequests } from '@fleet/protocol';
import type { DeviceRuntime } from '../devices/device-runtime';
import type { Exchange } from '../mcp/exchange';
import type { McpLink } from '../mcp/mcp-link';
import { toolOutcomeOf } from './rows/response-rows';
import { readStatusValue } from './recipes';

const STATUS_READ = { tool: 'self.get_device_status', arguments: {} };

export interface ReadbackResult {
  observed: unknown;
  statusText: string | undefined;
  exchanges: Exchange[];
}

/**
 * Reads `self.get_device_status` (or the model's read tool) until the value at `path` equals the target or `settleMs` has passed (the
 * backlight ramps), at least once. Each read has its own durable JSON-RPC id.
 */
export async function readBack(
  link: McpLink,
  device: DeviceRuntime,
  path: readonly string[],
  target: unknown,
  settleMs: number,
  timeoutMs: number,
  read: { tool: string; arguments: Record<string, unknown> } = STATUS_READ,
): Promise<ReadbackResult> {
  const until = Date.now() + settleMs;
  const exchanges: Exchange[] = [];
  let observed: unknown;
  let statusText: string | undefined;
  for (;;) {
    const id = await link.allocateId(device.mac);
    const exchange = await link.exchange(
      { mac: device.mac, dialect: device.dialect, connectionId: device.connectionId },
      { ...mcpRequests.toolsCall(id, read.tool, read.arguments), id },
      timeoutMs,
    );
    exchanges.push(exchange);
    const outcome = toolOutcomeOf(exchange);
    if (outcome?.kind === 'success') {
      statusText = outcome.text;
      observed = readStatusValue(outcome.text, path);
    }
    if (observed === target || Date.now() >= until || outcome === undefined) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { observed, statusText, exchanges };
}
