import { hashClientId } from './client-id-secret';

// xiaozhi §3.4 tool 6 / §4.2: `self.get_system_info` answers the OTA body, whose `uuid` is the device's Client-Id.
// A reply is evidence a viewer reads, so the Client-Id (a device secret, DESIGN §3) is stored as the same
// `sha256:<hex>` the migration that hashed stored check-in bodies wrote. Matched both as plain JSON (the tool's
// text) and as JSON escaped inside the JSON-RPC envelope (the raw reply), where quotes arrive as \".
const UUID_FIELD =
  /("uuid"|\\"uuid\\")(\s*:\s*)(\\?")([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\\?")/gi;

/** The text with every `uuid` field's value hashed, and how many were. */
export function hashUuidFields(text: string): { text: string; hashed: number } {
  let hashed = 0;
  const out = text.replace(
    UUID_FIELD,
    (_m, key: string, colon: string, open: string, uuid: string, close: string) => {
      hashed += 1;
      return `${key}${colon}${open}sha256:${hashClientId(uuid)}${close}`;
    },
  );
  return { text: out, hashed };
}
