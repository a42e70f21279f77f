import { DEVICE_SERVER_TOPIC, deviceP2pTopic, parseDeviceP2pTopic } from '@fleet/protocol';
import type { ClientIdentity } from './client-identity';

export type AccessDecision = { ok: true } | { ok: false; reason: string };

const ALLOW: AccessDecision = { ok: true };
const refuse = (reason: string): AccessDecision => ({ ok: false, reason });

// DESIGN §3: downlink rights go by message type. The broker itself sends hello and goodbye (it holds the session
// id), through aedes.publish, which no client rule applies to. The orchestrator sends an announcement's `alert`:
// it owns the announcement call and publishes on the connection its sending row names.
const DOWNLINK_RIGHTS: Record<string, ReadonlySet<string>> = {
  orchestrator: new Set(['mcp', 'system', 'alert']),
  'voice-worker': new Set(['tts', 'stt', 'llm', 'alert']),
};

export interface PublishRequest {
  topic: string;
  payload: Buffer;
  qos: number;
  retain: boolean;
}

export function decidePublish(identity: ClientIdentity, p: PublishRequest): AccessDecision {
  if (identity.kind === 'device') return decideDevicePublish(p);
  if (p.topic.startsWith('$SYS/')) return refuse('sys_topic');
  if (p.retain) return refuse('retain');
  // Only the broker speaks under fleet/devices/#: a service that could would forge a device's reply into evidence.
  if (p.topic.startsWith('fleet/')) return refuse('fleet_reserved');
  if (!parseDeviceP2pTopic(p.topic).ok) return refuse('service_topic');
  const type = messageType(p.payload);
  if (type === undefined) return refuse('downlink_unreadable');
  return DOWNLINK_RIGHTS[identity.name]?.has(type) ? ALLOW : refuse('downlink_type');
}

/** What any device may publish (its will included): its uplink topic only, QoS 0, never retained. */
export function decideDevicePublish(p: Omit<PublishRequest, 'payload'>): AccessDecision {
  if (p.topic.startsWith('$SYS/')) return refuse('sys_topic');
  if (p.retain) return refuse('retain');
  // xiaozhi §1.2: every device→server message goes to publish_topic with QoS 0.
  if (p.topic !== DEVICE_SERVER_TOPIC) return refuse('device_topic');
  if (p.qos !== 0) return refuse('device_qos');
  return ALLOW;
}

export function decideSubscribe(identity: ClientIdentity, topic: string): AccessDecision {
  if (identity.kind === 'device') {
    // Firmware from before 2025-01 subscribed to its own subscribe_topic; nothing else is a device's business.
    return topic === deviceP2pTopic(identity.mac) ? ALLOW : refuse('device_subscribe');
  }
  return topic.startsWith('fleet/') ? ALLOW : refuse('service_subscribe');
}

function messageType(payload: Buffer): string | undefined {
  try {
    const value: unknown = JSON.parse(payload.toString('utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    // listenai.md: the ListenAI envelope names its kind in `action` ("mcp"), so the same rights apply to it.
    const { type, action } = value as { type?: unknown; action?: unknown };
    const kind = type ?? action;
    return typeof kind === 'string' ? kind : undefined;
  } catch {
    return undefined;
  }
}
