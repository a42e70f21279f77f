import mqtt, { type MqttClient } from 'mqtt';
import { decodePresenceEvent, FLEET_TOPIC_FILTERS } from '@fleet/protocol';

export interface PresenceWatch {
  /** Devices whose latest presence event says online. */
  readonly online: number;
  /** Online events seen so far (a reconnect counts again). */
  readonly onlineEvents: number;
  /** Resolves once `predicate(online)` holds, with what `onReached` returned at that very moment. */
  until<T>(predicate: (online: number) => boolean, onReached: () => T): Promise<T>;
  close(): Promise<void>;
}

/**
 * Counts devices online the way the orchestrator learns it: presence events on fleet/devices/+/presence, read by
 * a service identity. Cheaper and more exact than polling /metrics, whose collectors walk every open handle.
 */
export async function watchPresence(mqttUrl: string, password: string): Promise<PresenceWatch> {
  const client: MqttClient = await mqtt.connectAsync(mqttUrl, {
    username: 'orchestrator',
    password,
    clientId: `bench-presence-${process.pid}`,
    protocolVersion: 4,
    reconnectPeriod: 0,
  });
  const connections = new Map<string, string>(); // mac → the connection id it is online with
  const waiters: { predicate: (n: number) => boolean; fire: () => void }[] = [];
  let onlineEvents = 0;
  client.on('message', (_topic, payload) => {
    const event = decodePresenceEvent(payload);
    if (!event.ok) return;
    const { mac, state, connectionId } = event.value;
    if (state === 'online') {
      connections.set(mac, connectionId);
      onlineEvents++;
    }
    // An offline of an older connection (a takeover) does not take the newer one down.
    else if (connections.get(mac) === connectionId) connections.delete(mac);
    for (const w of waiters.splice(0)) {
      if (w.predicate(connections.size)) w.fire();
      else waiters.push(w);
    }
  });
  await client.subscribeAsync(FLEET_TOPIC_FILTERS.presence, { qos: 0 });
  return {
    get online() {
      return connections.size;
    },
    get onlineEvents() {
      return onlineEvents;
    },
    until(predicate, onReached) {
      return new Promise((resolve) => {
        const fire = () => resolve(onReached());
        if (predicate(connections.size)) fire();
        else waiters.push({ predicate, fire });
      });
    },
    close: () => client.endAsync(true),
  };
}
