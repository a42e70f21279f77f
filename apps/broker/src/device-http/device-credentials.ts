import { createHash } from 'node:crypto';
import { encodeUsername, formatClientId, signMqttPassword, type Mac } from '@fleet/protocol';

export interface IssuedCredentials {
  clientId: string;
  username: string;
  password: string;
  /** sha256 of `clientId`: kept on the device row, the one client id the broker accepts until the next answer. */
  clientIdHash: string;
}

// Board types are `[a-z0-9.-]+` (xiaozhi §4.2); anything else would make a client id the gateway rejects.
const GROUP = /^[a-z0-9.-]{1,64}$/;

/**
 * The gateway convention's credentials (xiaozhi §1.3): `GID_<board>@@@<mac_>@@@<uuid>`, the username as base64
 * JSON, the password an HMAC with the newest signing key.
 */
export function issueCredentials(
  mac: Mac,
  uuid: string,
  board: string | undefined,
  remoteAddress: string | undefined,
  signingKey: string,
): IssuedCredentials {
  const group = board && GROUP.test(board) ? board : 'device';
  const clientId = formatClientId({ group, mac, uuid });
  const username = encodeUsername({ ip: remoteAddress ?? 'unknown' });
  return {
    clientId,
    username,
    password: signMqttPassword(signingKey, clientId, username),
    clientIdHash: hashMqttClientId(clientId),
  };
}

/** The exact MQTT client id's sha256: what the broker compares at CONNECT (it contains the Client-Id). */
export function hashMqttClientId(clientId: string): string {
  return createHash('sha256').update(clientId, 'utf8').digest('hex');
}
