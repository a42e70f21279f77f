import { err, ok, type ProtocolError, type Result } from '../result';
import { decodeUtf8 } from './utf8';

export type JsonReadErrorKind = 'too_large' | 'invalid_json' | 'not_an_object';

/** Bytes or text to a plain JSON object, with a size limit; typed errors, never an exception. */
export function readJsonObject(
  input: string | Uint8Array,
  maxBytes: number,
): Result<Record<string, unknown>, ProtocolError<JsonReadErrorKind>> {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.length;
  if (size > maxBytes) return err({ kind: 'too_large', message: `${size} bytes, the limit is ${maxBytes}` });
  let value: unknown;
  try {
    value = JSON.parse(typeof input === 'string' ? input : decodeUtf8(input));
  } catch (e) {
    return err({ kind: 'invalid_json', message: (e as Error).message });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return err({
      kind: 'not_an_object',
      message: `a JSON ${Array.isArray(value) ? 'array' : typeof value}, not an object`,
    });
  }
  return ok(value as Record<string, unknown>);
}
