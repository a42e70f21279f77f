import { encodeUsername, formatClientId, signMqttPassword, type Mac } from '@fleet/protocol';

/** xiaozhi §1.3: client id `GID_<board>@@@<mac_>@@@<uuid>`, username base64 JSON, password HMAC. */
export function otaCredentials(input: { mac: Mac; uuid: string; boardType: string; signingKey: string }): {
  clientId: string;
  username: string;
  password: string;
} {
  const group = input.boardType.replace(/[: ]/g, '_');
  const clientId = formatClientId({
    group,
    mac: input.mac,
    uuid: input.uuid || input.mac.replace(/:/g, '_'),
  });
  const username = encodeUsername({ ip: 'unknown' });
  return { clientId, username, password: signMqttPassword(input.signingKey, clientId, username) };
}
