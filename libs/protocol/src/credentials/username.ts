import { err, ok, type ProtocolError, type Result } from '../result';

export type UsernameError = ProtocolError<'invalid_username'>;

/** xiaozhi §1.3: base64(JSON.stringify(userData)); `{"ip":"unknown"}` → `eyJpcCI6InVua25vd24ifQ==`. */
export function encodeUsername(userData: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(userData), 'utf8').toString('base64');
}

/** Standard base64 (with padding) of a JSON object; anything else is refused, never thrown. */
export function decodeUsername(username: string): Result<Record<string, unknown>, UsernameError> {
  if (username === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(username)) return invalid('not standard base64');
  const bytes = Buffer.from(username, 'base64');
  if (bytes.toString('base64') !== username) return invalid('not canonical base64');
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return invalid('base64 of something that is not UTF-8 JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid('JSON that is not an object');
  }
  return ok(value as Record<string, unknown>);
}

function invalid(message: string): { ok: false; error: UsernameError } {
  return err({ kind: 'invalid_username', message });
}
