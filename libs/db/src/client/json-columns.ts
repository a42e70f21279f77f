/**
 * A json/jsonb column the application only ever writes as an object (timings, limits, an inputSchema), read back
 * typed: the generated column type is `unknown`, and a row that is not an object is refused here, by name.
 */
export function jsonObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Record<string, unknown>;
  throw new Error(`${what} is not a JSON object`);
}

/** A json/jsonb parameter as text: pg would send a JS array as a Postgres array, not as JSON. */
export function jsonParam(value: unknown): string {
  return JSON.stringify(value);
}
