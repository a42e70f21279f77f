import { macFromTopicId, macToTopicId, type Mac } from './mac';
import { err, ok, type ProtocolError, type Result } from './result';

/** xiaozhi §1.3: every device publishes here; the sender is known only by its connection. */
export const DEVICE_SERVER_TOPIC = 'device-server';

/** xiaozhi §1.3: what the gateway publishes to a device (and what a pre-2025 firmware subscribes to). */
export function deviceP2pTopic(mac: Mac): string {
  return `devices/p2p/${macToTopicId(mac)}`;
}

/** DESIGN §2: the broker re-publishes a device's uplink, wrapped, by sender identity and kind. */
export const UPLINK_KINDS = ['mcp', 'voice', 'other'] as const;
export type UplinkKind = (typeof UPLINK_KINDS)[number];

export function fleetUplinkTopic(mac: Mac, kind: UplinkKind): string {
  return `fleet/devices/${macToTopicId(mac)}/up/${kind}`;
}

export function fleetPresenceTopic(mac: Mac): string {
  return `fleet/devices/${macToTopicId(mac)}/presence`;
}

/** MQTT wildcard subscriptions for the services that read what the broker publishes. */
export const FLEET_TOPIC_FILTERS = {
  allUplinks: 'fleet/devices/+/up/+',
  uplinks: (kind: UplinkKind) => `fleet/devices/+/up/${kind}`,
  presence: 'fleet/devices/+/presence',
  everything: 'fleet/devices/#',
} as const;

export type FleetTopic =
  | { readonly kind: 'uplink'; readonly mac: Mac; readonly uplink: UplinkKind }
  | { readonly kind: 'presence'; readonly mac: Mac };

export function parseFleetTopic(topic: string): Result<FleetTopic, ProtocolError<'unknown_topic'>> {
  const parts = topic.split('/');
  const unknown = err({ kind: 'unknown_topic' as const, message: `not a fleet device topic: ${topic}` });
  if (parts[0] !== 'fleet' || parts[1] !== 'devices' || parts[2] === undefined) return unknown;
  const mac = macFromTopicId(parts[2]);
  if (!mac.ok) return unknown;
  if (parts.length === 4 && parts[3] === 'presence') return ok({ kind: 'presence', mac: mac.value });
  const uplink = parts[4] as UplinkKind;
  if (parts.length === 5 && parts[3] === 'up' && UPLINK_KINDS.includes(uplink)) {
    return ok({ kind: 'uplink', mac: mac.value, uplink });
  }
  return unknown;
}

export function parseDeviceP2pTopic(topic: string): Result<Mac, ProtocolError<'unknown_topic'>> {
  const match = /^devices\/p2p\/([^/]+)$/.exec(topic);
  const id = match?.[1];
  const mac = id === undefined ? undefined : macFromTopicId(id);
  return mac?.ok ? mac : err({ kind: 'unknown_topic', message: `not a device p2p topic: ${topic}` });
}

/** Which fleet uplink topic a device message of this `type` goes to (DESIGN §2). */
export function uplinkKindOf(type: string | undefined): UplinkKind {
  if (type === undefined) return 'other';
  switch (type) {
    case 'mcp':
      return 'mcp';
    case 'hello':
    case 'listen':
    case 'abort':
    case 'goodbye':
      return 'voice';
    default:
      return 'other';
  }
}
