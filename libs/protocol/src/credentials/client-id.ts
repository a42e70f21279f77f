import { macFromTopicId, macToTopicId, type Mac } from '../mac';
import { err, ok, type ProtocolError, type Result } from '../result';

const SEPARATOR = '@@@';
const GROUP_PREFIX = 'GID_';

export interface ClientId {
  /** The group after `GID_`, e.g. `bread-compact-wifi`. */
  readonly group: string;
  readonly mac: Mac;
  /** Absent in the legacy two-part form. */
  readonly uuid?: string;
  readonly legacy: boolean;
}

export type ClientIdError = ProtocolError<'invalid_client_id'>;

/**
 * xiaozhi §1.3: `GID_<group>@@@<mac_>@@@<uuid>`, or the legacy `GID_<group>@@@<mac_>`. The gateway checks the MAC
 * only in the legacy form; here it is checked in both, since the platform keys every device by its MAC.
 */
export function parseClientId(clientId: string): Result<ClientId, ClientIdError> {
  const parts = clientId.split(SEPARATOR);
  if (parts.length !== 2 && parts.length !== 3) {
    return invalid(`expected 2 or 3 parts separated by ${SEPARATOR}`);
  }
  const [groupId, macPart, uuid] = parts as [string, string, string | undefined];
  if (!groupId.startsWith(GROUP_PREFIX) || groupId.length === GROUP_PREFIX.length) {
    return invalid('group must be GID_<name>');
  }
  // The gateway derives the device topic from this part as it is, so only the underscored form is accepted.
  const mac = macFromTopicId(macPart);
  if (!mac.ok) return invalid(`not a lower-case MAC with underscores: ${JSON.stringify(macPart)}`);
  if (uuid === '') return invalid('empty uuid part');
  const group = groupId.slice(GROUP_PREFIX.length);
  return ok(
    uuid === undefined
      ? { group, mac: mac.value, legacy: true }
      : { group, mac: mac.value, uuid, legacy: false },
  );
}

/** The three-part client id the OTA answer hands out. */
export function formatClientId(parts: { group: string; mac: Mac; uuid: string }): string {
  return [`${GROUP_PREFIX}${parts.group}`, macToTopicId(parts.mac), parts.uuid].join(SEPARATOR);
}

function invalid(message: string): { ok: false; error: ClientIdError } {
  return err({ kind: 'invalid_client_id', message });
}
