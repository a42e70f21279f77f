import { CONTROL_CHANNEL, createRedis, parseControlMessage, type Redis } from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';
import type { BrokerMetrics } from '../broker-metrics';
import type { DeviceEdge } from './device-edge';

/**
 * Listens on `fleet:control` (every replica does): drops the live connections of a device the moment it is
 * revoked or decommissioned (its next CONNECT is refused by the device row), and closes an older connection of
 * a device that another replica just accepted (one live connection per device, DESIGN §3). An unreadable
 * message is counted and logged, never fatal.
 */
export async function listenForControl(
  redisUrl: string,
  edge: DeviceEdge,
  metrics: BrokerMetrics,
  logger: Logger,
): Promise<{ close(): Promise<void> }> {
  // A subscribed connection can do nothing else, so it is a connection of its own.
  const subscriber: Redis = createRedis(redisUrl);
  subscriber.on('error', () => undefined); // the broker's main connection reports outages
  subscriber.on('message', (_channel: string, text: string) => {
    const parsed = parseControlMessage(text);
    if (!parsed.ok) {
      metrics.malformedInput.inc({ kind: 'control_message' });
      logger.warn({ error: parsed.error }, 'unreadable message on the control channel');
      return;
    }
    const message = parsed.message;
    if (message.type === 'device.connected') {
      edge.takeOver({
        mac: message.deviceId,
        connectionId: message.connectionId,
        brokerId: message.brokerId,
        connectedAt: message.connectedAt,
      });
      return;
    }
    const reason = message.type === 'device.revoked' ? 'revoked' : 'decommissioned';
    const closed = edge.disconnectDevice(message.deviceId, reason);
    if (closed)
      logger.info({ deviceId: message.deviceId, reason, closed }, 'dropped the connections of a device');
  });
  await subscriber.subscribe(CONTROL_CHANNEL);
  return {
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
