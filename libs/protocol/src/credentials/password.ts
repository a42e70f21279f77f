import { createHmac, timingSafeEqual } from 'node:crypto';

/** A signing key with a name, so a verification can say which one matched (key rotation). */
export interface SigningKey {
  readonly id: string;
  readonly secret: string | Uint8Array;
}

/** xiaozhi §1.3: base64(HMAC-SHA256(key, client_id + "|" + username)), standard base64 with padding. */
export function signMqttPassword(secret: string | Uint8Array, clientId: string, username: string): string {
  return createHmac('sha256', secret).update(`${clientId}|${username}`, 'utf8').digest('base64');
}

export type PasswordVerification = { readonly ok: true; readonly keyId: string } | { readonly ok: false };

/**
 * Checks the password against every key, in constant time per key and without stopping at the first match, so
 * the time taken says nothing about which key (if any) matched or how much of the password was right.
 */
export function verifyMqttPassword(
  keys: readonly SigningKey[],
  clientId: string,
  username: string,
  password: string,
): PasswordVerification {
  const given = Buffer.from(password, 'utf8');
  let matched: string | undefined;
  for (const key of keys) {
    const expected = Buffer.from(signMqttPassword(key.secret, clientId, username), 'utf8');
    // timingSafeEqual needs equal lengths; compare expected with itself so a wrong length costs the same.
    const same =
      given.length === expected.length
        ? timingSafeEqual(given, expected)
        : !timingSafeEqual(expected, expected);
    if (same && matched === undefined) matched = key.id;
  }
  return matched === undefined ? { ok: false } : { ok: true, keyId: matched };
}
