import { isFirmwareClientId, parseClientId, type Mac } from '@fleet/protocol';
import { decideDevicePublish } from './access-control';

/**
 * A will as aedes' persistence keeps it (the CONNECT's will, plus the client id and broker id it stores with it),
 * read from Redis: nothing in it is taken on trust. `fleetConnectionId` is the connection it came with, which
 * the device edge writes into the will before aedes stores it.
 */
export interface StoredWill {
  topic?: unknown;
  payload?: unknown;
  qos?: unknown;
  retain?: unknown;
  clientId?: unknown;
  brokerId?: unknown;
  fleetConnectionId?: unknown;
}

export type WillJudgement =
  { ok: true; mac: Mac; connectionId: string; payload: Buffer } | { ok: false; reason: string };

/**
 * A will its broker died holding, judged by the rights of the device whose client id it carries (DESIGN §3:
 * devices publish only to `device-server`, QoS 0, never retained) and bound to the connection it came with, as
 * any of that device's messages is. A will without a device's client id, or without its connection, is refused.
 */
export function judgeStrandedWill(will: StoredWill): WillJudgement {
  const parsed = typeof will.clientId === 'string' ? parseClientId(will.clientId) : undefined;
  if (!parsed?.ok || parsed.value.uuid === undefined || !isFirmwareClientId(parsed.value.uuid)) {
    return { ok: false, reason: 'not_a_device' };
  }
  if (typeof will.topic !== 'string') return { ok: false, reason: 'unreadable' };
  const decision = decideDevicePublish({
    topic: will.topic,
    qos: typeof will.qos === 'number' ? will.qos : 0,
    retain: will.retain === true,
  });
  if (!decision.ok) return decision;
  const connectionId = will.fleetConnectionId;
  if (typeof connectionId !== 'string' || connectionId === '') return { ok: false, reason: 'no_connection' };
  const payload =
    typeof will.payload === 'string'
      ? Buffer.from(will.payload)
      : will.payload instanceof Uint8Array
        ? Buffer.from(will.payload)
        : undefined;
  if (!payload) return { ok: false, reason: 'unreadable' };
  return { ok: true, mac: parsed.value.mac, connectionId, payload };
}
