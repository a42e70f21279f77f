import type { MqttClient } from 'mqtt';
import {
  decodeUplinkWrapper,
  FLEET_TOPIC_FILTERS,
  parseDeviceMessage,
  parseFleetTopic,
  type AbortMessage,
  type ListenMessage,
} from '@fleet/protocol';
import type { Logger } from '@fleet/telemetry';

export type ListenSignal = ListenMessage | AbortMessage;

/**
 * A device's listen state and aborts (xiaozhi §2.1), as the broker wraps them on fleet/devices/<mac_>/up/voice.
 * Every worker hears every device; the handler keeps what concerns its own sessions and replies.
 */
export function subscribeListenEvents(
  mqtt: MqttClient,
  onSignal: (mac: string, signal: ListenSignal) => void,
  logger: Logger,
): void {
  mqtt.on('message', (topic, payload) => {
    const parsed = parseFleetTopic(topic);
    if (!parsed.ok || parsed.value.kind !== 'uplink' || parsed.value.uplink !== 'voice') return;
    const wrapper = decodeUplinkWrapper(payload);
    if (!wrapper.ok) return;
    const message = parseDeviceMessage(wrapper.value.bytes);
    if (!message.ok) return;
    const m = message.value.message;
    if (m.type === 'listen' || m.type === 'abort') onSignal(wrapper.value.mac, m);
  });
  // Subscribed on every (re)connect: the session is clean, so the broker forgets subscriptions with the connection.
  const subscribe = () =>
    mqtt.subscribe(FLEET_TOPIC_FILTERS.uplinks('voice'), { qos: 0 }, (err) => {
      if (err) logger.warn({ err }, 'cannot subscribe to device voice uplinks');
    });
  mqtt.on('connect', subscribe);
  if (mqtt.connected) subscribe();
}
