import type { MqttClient } from 'mqtt';
import {
  decodePresenceEvent,
  decodeUplinkWrapper,
  FLEET_TOPIC_FILTERS,
  parseFleetTopic,
  type PresenceEvent,
} from '@fleet/protocol';
import type { DeviceRegistry } from '../devices/device-registry';
import type { OrchestratorMetrics } from '../orchestrator-metrics';
import type { McpLink } from './mcp-link';
import type { UnownedReplies } from './unowned-replies';

/**
 * What the broker publishes under fleet/devices/# (every replica hears everything; each keeps only the devices of
 * the partitions it owns, decided from the topic before any payload is decoded).
 */
export async function subscribeFleet(
  mqtt: MqttClient,
  devices: DeviceRegistry,
  link: McpLink,
  onPresence: (event: PresenceEvent) => void,
  metrics: OrchestratorMetrics,
  /** The link came back and is subscribed again: presence events of the gap were lost (they are QoS 0). */
  onResubscribed: () => void = () => undefined,
  /** Where replies of other replicas' devices are kept for a takeover (undecoded). */
  unowned?: UnownedReplies,
): Promise<void> {
  mqtt.on('message', (topic, payload) => {
    const parsed = parseFleetTopic(topic);
    if (!parsed.ok) return;
    const device = devices.get(parsed.value.mac);
    if (!device) {
      if (parsed.value.kind === 'uplink' && parsed.value.uplink === 'mcp')
        unowned?.keep(parsed.value.mac, payload);
      return;
    }
    if (parsed.value.kind === 'presence') {
      const event = decodePresenceEvent(payload);
      if (event.ok) onPresence(event.value);
      else metrics.malformedInput.inc({ kind: 'presence_event' });
      return;
    }
    if (parsed.value.uplink !== 'mcp') return;
    const wrapper = decodeUplinkWrapper(payload);
    if (!wrapper.ok) {
      metrics.malformedInput.inc({ kind: 'uplink_wrapper' });
      return;
    }
    link.receive(
      {
        mac: wrapper.value.mac,
        connectionId: wrapper.value.connectionId,
        receivedAt: new Date(wrapper.value.receivedAt),
        bytes: Buffer.from(wrapper.value.bytes),
        traceparent: wrapper.value.traceparent,
      },
      // The broker names the dialect of the bytes (DESIGN §3): the ListenAI link says so, MQTT is xiaozhi.
      wrapper.value.dialect ?? 'xiaozhi',
    );
  });
  // Subscribed on every (re)connect: the session is clean, so the broker forgets subscriptions with the connection.
  let subscribedBefore = false;
  const subscribe = () =>
    mqtt.subscribe([FLEET_TOPIC_FILTERS.uplinks('mcp'), FLEET_TOPIC_FILTERS.presence], { qos: 0 }, (err) => {
      if (err) {
        metrics.malformedInput.inc({ kind: 'subscribe_failed' });
        return;
      }
      if (subscribedBefore) onResubscribed();
      subscribedBefore = true;
    });
  mqtt.on('connect', subscribe);
  if (mqtt.connected) subscribe();
  return Promise.resolve();
}
