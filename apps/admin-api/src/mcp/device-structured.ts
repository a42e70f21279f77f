import Ajv, { type ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import { canonicalJson } from '@fleet/domain';

/**
 * The device's reply text read as data (MCP 2025-06-18 `structuredContent`): its JSON when it is JSON, checked
 * against the outputSchema the device declared for the tool in the catalog the call ran under. A device's text is
 * its own words either way: the check says whether they have the shape it promised, never that they are true.
 */
export interface DeviceStructured {
  /** The reply parsed as JSON; absent when there was no reply or it was not JSON. */
  value?: unknown;
  /** true/false against the declared outputSchema; null when the tool declares none (nothing to check). */
  matchesOutputSchema: boolean | null;
  /** What did not fit, in Ajv's words (paths into the reply). */
  problems?: string[];
}

const ajv = new Ajv({ strict: false, allErrors: true });
// Compiled once per schema text: catalogs are shared by many devices and rarely change.
const compiled = new LRUCache<string, ValidateFunction | Error>({ max: 500 });

export function deviceStructured(
  replyText: string | undefined,
  outputSchema: Record<string, unknown> | null,
): DeviceStructured {
  const value = parseJson(replyText);
  if (outputSchema === null) return { ...value, matchesOutputSchema: null };
  if (!('value' in value)) return { matchesOutputSchema: false, problems: ['the reply is not JSON'] };
  const validate = validatorOf(outputSchema);
  if (validate instanceof Error) {
    return {
      ...value,
      matchesOutputSchema: false,
      problems: [`the outputSchema does not compile: ${validate.message}`],
    };
  }
  if (validate(value.value)) return { ...value, matchesOutputSchema: true };
  const problems = (validate.errors ?? []).map((e) =>
    `${e.instancePath || '(reply)'} ${e.message ?? ''}`.trim(),
  );
  return { ...value, matchesOutputSchema: false, problems };
}

function parseJson(text: string | undefined): { value?: unknown } {
  if (text === undefined) return {};
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return {};
  }
}

function validatorOf(schema: Record<string, unknown>): ValidateFunction | Error {
  const key = canonicalJson(schema);
  let found = compiled.get(key);
  if (!found) {
    try {
      found = ajv.compile(schema);
    } catch (err) {
      found = err instanceof Error ? err : new Error(String(err));
    }
    compiled.set(key, found);
  }
  return found;
}
