import type { MqttClient } from 'mqtt';
import {
  decodePresenceEvent,
  decodeUplinkWrapper,
  FLEET_TOPIC_FILTERS,
  parseFleetTopic,
  type Mac,
  type PresenceEvent,
  type UplinkKind,
  type UplinkWrapper,
} from '@fleet/protocol';

export interface SeenUplink {
  mac: Mac;
  kind: UplinkKind;
  wrapper: UplinkWrapper;
  /** The device's exact bytes, decoded from `raw`. */
  text: string;
}

/** What a service reading fleet/devices/# has seen: presence events and wrapped uplinks, decoded. */
export interface FleetWatch {
  presence(mac: Mac): PresenceEvent[];
  online(mac: Mac): PresenceEvent[];
  uplinks(mac: Mac, kind?: UplinkKind): SeenUplink[];
}

export async function watchFleet(service: MqttClient): Promise<FleetWatch> {
  const presence: PresenceEvent[] = [];
  const uplinks: SeenUplink[] = [];
  service.on('message', (topic, payload) => {
    const parsed = parseFleetTopic(topic);
    if (!parsed.ok) return;
    if (parsed.value.kind === 'presence') {
      const event = decodePresenceEvent(payload);
      if (event.ok) presence.push(event.value);
      return;
    }
    const wrapped = decodeUplinkWrapper(payload);
    if (!wrapped.ok) throw new Error(`a wrapped uplink the contract refuses: ${wrapped.error.message}`);
    const { bytes, ...wrapper } = wrapped.value;
    uplinks.push({
      mac: parsed.value.mac,
      kind: parsed.value.uplink,
      wrapper,
      text: Buffer.from(bytes).toString('utf8'),
    });
  });
  await service.subscribeAsync(FLEET_TOPIC_FILTERS.everything);
  return {
    presence: (mac) => presence.filter((p) => p.mac === mac),
    online: (mac) => presence.filter((p) => p.mac === mac && p.state === 'online'),
    uplinks: (mac, kind) => uplinks.filter((u) => u.mac === mac && (kind === undefined || u.kind === kind)),
  };
}
