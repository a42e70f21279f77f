/**
 * Everything that reads input from a device or another service answers with a Result instead of throwing:
 * the caller counts `error.kind` as a metric label and logs `error.message` for people.
 */
export type Result<T, E extends ProtocolError = ProtocolError> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export interface ProtocolError<K extends string = string> {
  readonly kind: K;
  readonly message: string;
}

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function err<E extends ProtocolError>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error };
}

/** For exhaustive switches: the compiler rejects a call whose argument is not `never`. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
