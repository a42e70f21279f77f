import { createHash } from 'node:crypto';

// xiaozhi §4.1: the Client-Id is the UUID v4 the firmware generates once and keeps in NVS (board.uuid).
const FIRMWARE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const CLIENT_ID_LENGTH = 36;
/** How much of a Client-Id's hash may be shown (DESIGN §3: "a short fingerprint at most"). */
export const FINGERPRINT_LENGTH = 8;

/** A Client-Id shaped as the firmware makes it; anything else (8,000 characters, a hash, a MAC) is refused. */
export function isFirmwareClientId(text: string): boolean {
  return text.length === CLIENT_ID_LENGTH && FIRMWARE_UUID.test(text);
}

/**
 * DESIGN §3: the Client-Id is a device secret and is stored hashed. It is a random UUID (122 bits), so a plain
 * SHA-256 cannot be searched backwards; the migration that hashed the existing rows computes the same in SQL
 * (`encode(sha256(convert_to(lower(id), 'UTF8')), 'hex')`). Case carries nothing in a UUID.
 */
export function hashClientId(clientId: string): string {
  return createHash('sha256').update(clientId.toLowerCase(), 'utf8').digest('hex');
}

/** The short form of a stored Client-Id hash that answers, logs and pages may show. */
export function fingerprintOfHash(hash: string): string {
  return hash.slice(0, FINGERPRINT_LENGTH);
}

export function clientIdFingerprint(clientId: string): string {
  return fingerprintOfHash(hashClientId(clientId));
}

const SEPARATOR = '@@@';
const MAX_SHOWN = 96;

/**
 * An MQTT client id as a log line may show it: `GID_<group>@@@<mac_>` and the uuid part as its fingerprint
 * (`#1a2b3c4d`); an id of another shape only as a fingerprint and its length (it may be a bare Client-Id).
 * Whatever a stranger sent is cut short, so an 8,000-character id never reaches a log.
 */
export function redactMqttClientId(clientId: string | null | undefined): string {
  // aedes reports errors of a connection that has not sent its CONNECT yet with a null id.
  if (typeof clientId !== 'string') return '(none)';
  const parts = clientId.split(SEPARATOR);
  if (parts.length < 2) return `#${clientIdFingerprint(clientId)}(${clientId.length} chars)`;
  const shown =
    parts.length === 2
      ? clientId
      : [...parts.slice(0, 2), `#${clientIdFingerprint(parts.slice(2).join(SEPARATOR))}`].join(SEPARATOR);
  return shown.length > MAX_SHOWN ? `${shown.slice(0, MAX_SHOWN)}…(${clientId.length} chars)` : shown;
}
