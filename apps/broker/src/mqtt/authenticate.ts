import { randomUUID } from 'node:crypto';
import {
  decodeUsername,
  hashClientId,
  isFirmwareClientId,
  parseClientId,
  verifyMqttPassword,
  type Mac,
  type SigningKey,
} from '@fleet/protocol';
import { hashMqttClientId } from '../device-http/device-credentials';
import type { DeviceRepository } from '../devices/device-repository';
import { idRandomness } from '../util/random-pool';
import type { ServiceIdentities } from './service-identities';
import type { ClientIdentity } from './client-identity';

// MQTT 3.1.1 §3.2.2.3 CONNACK return codes.
export const CONNACK = { identifierRejected: 2, badCredentials: 4, notAuthorized: 5 } as const;

export type AuthRefusal = {
  ok: false;
  /** A metric label and a log word: the device learns only the return code. */
  reason:
    | 'invalid_client_id'
    | 'legacy_client_id'
    | 'invalid_username'
    | 'bad_password'
    | 'bad_service_secret'
    | 'unknown_device'
    | 'not_activated'
    | 'revoked'
    | 'decommissioned'
    | 'stale_identity'
    | 'stale_client_id';
  returnCode: (typeof CONNACK)[keyof typeof CONNACK];
};
export type AuthResult = { ok: true; identity: ClientIdentity } | AuthRefusal;

export interface ConnectAttempt {
  clientId: string;
  username: string | undefined;
  password: Buffer | undefined;
  keepalive: number;
  remoteAddress?: string;
}

/**
 * Decides a CONNECT before any CONNACK is sent (the 78 gateway accepts first and checks later; we never do).
 * Service identities use their own secrets; devices the gateway convention's HMAC, then the device registry.
 */
export class Authenticator {
  private readonly keys: SigningKey[];

  constructor(
    signingKeys: string[],
    private readonly services: ServiceIdentities,
    private readonly devices: DeviceRepository,
  ) {
    this.keys = signingKeys.map((secret, index) => ({ id: `key${index}`, secret }));
  }

  async authenticate(attempt: ConnectAttempt): Promise<AuthResult> {
    if (attempt.username !== undefined && this.services.knows(attempt.username)) {
      const name = this.services.authenticate(attempt.username, attempt.password);
      return name
        ? { ok: true, identity: { kind: 'service', name } }
        : refuse('bad_service_secret', CONNACK.badCredentials);
    }
    const parsed = parseClientId(attempt.clientId);
    if (!parsed.ok) return refuse('invalid_client_id', CONNACK.identifierRejected);
    // We only hand out three-part ids; a two-part one has no uuid to bind to the device.
    if (parsed.value.uuid === undefined) return refuse('legacy_client_id', CONNACK.identifierRejected);
    // DESIGN §3: the uuid part is the Client-Id, accepted only as the firmware makes it.
    if (!isFirmwareClientId(parsed.value.uuid))
      return refuse('invalid_client_id', CONNACK.identifierRejected);
    if (!attempt.username || !decodeUsername(attempt.username).ok)
      return refuse('invalid_username', CONNACK.badCredentials);
    const password = attempt.password?.toString('utf8') ?? '';
    if (!verifyMqttPassword(this.keys, attempt.clientId, attempt.username, password).ok) {
      return refuse('bad_password', CONNACK.badCredentials);
    }
    return this.checkRegistry(parsed.value.mac, parsed.value.uuid, attempt);
  }

  private async checkRegistry(mac: Mac, uuid: string, attempt: ConnectAttempt): Promise<AuthResult> {
    const device = await this.devices.find(mac);
    if (!device) return refuse('unknown_device', CONNACK.notAuthorized);
    switch (device.status) {
      case 'revoked':
        return refuse('revoked', CONNACK.notAuthorized);
      case 'decommissioned':
        return refuse('decommissioned', CONNACK.notAuthorized);
      case 'awaiting_activation':
        return refuse('not_activated', CONNACK.notAuthorized);
      case 'active':
        break;
    }
    // Credentials issued before an operator re-bound the MAC to another Client-Id stop working.
    const clientIdHash = hashClientId(uuid);
    if (device.clientIdHash !== clientIdHash) return refuse('stale_identity', CONNACK.notAuthorized);
    // A device may use exactly the client id its last OTA answer issued (another board name in the GID_ part
    // is another client id the platform once signed, not the one it stands behind now).
    if (device.mqttClientIdHash !== null && device.mqttClientIdHash !== hashMqttClientId(attempt.clientId)) {
      return refuse('stale_client_id', CONNACK.notAuthorized);
    }
    return {
      ok: true,
      identity: {
        kind: 'device',
        mac,
        connectionId: randomUUID(),
        clientIdHash,
        keepalive: attempt.keepalive,
        connectedAt: Date.now(),
        ssrc: idRandomness.uint32(),
        ...(attempt.remoteAddress ? { remoteAddress: attempt.remoteAddress } : {}),
      },
    };
  }
}

function refuse(reason: AuthRefusal['reason'], returnCode: AuthRefusal['returnCode']): AuthRefusal {
  return { ok: false, reason, returnCode };
}
