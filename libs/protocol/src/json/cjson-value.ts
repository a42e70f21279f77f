/**
 * A parsed JSON document as the firmware's cJSON sees it: object members keep their order and their duplicates,
 * numbers carry both `valuedouble` and cJSON's saturating `valueint`, strings are C strings (cut at the first NUL).
 */
export type CJsonValue =
  | { readonly kind: 'null' }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'number'; readonly valuedouble: number; readonly valueint: number }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'array'; readonly items: readonly CJsonValue[] }
  | { readonly kind: 'object'; readonly members: readonly CJsonMember[] };

export type CJsonKind = CJsonValue['kind'];
export type CJsonObject = Extract<CJsonValue, { kind: 'object' }>;

export interface CJsonMember {
  readonly key: string;
  readonly value: CJsonValue;
}

export const INT32_MAX = 2147483647;
export const INT32_MIN = -2147483648;

/** cJSON's `valueint`: a saturating (int) cast; fractions truncate toward zero. */
export function saturatingInt(valuedouble: number): number {
  if (valuedouble >= INT32_MAX) return INT32_MAX;
  if (valuedouble <= INT32_MIN) return INT32_MIN;
  return Math.trunc(valuedouble) || 0; // `|| 0` turns -0 into 0, as an int has no negative zero
}

/** A C string ends at its first NUL: whatever the JSON said after a `\u0000` never reaches the firmware. */
export function cString(value: string): string {
  const nul = value.indexOf('\u0000');
  return nul === -1 ? value : value.slice(0, nul);
}

export const cjson = {
  null: (): CJsonValue => ({ kind: 'null' }),
  bool: (value: boolean): CJsonValue => ({ kind: 'bool', value }),
  number: (valuedouble: number): CJsonValue => ({
    kind: 'number',
    valuedouble,
    valueint: Number.isNaN(valuedouble) ? 0 : saturatingInt(valuedouble),
  }),
  string: (value: string): CJsonValue => ({ kind: 'string', value: cString(value) }),
  array: (items: readonly CJsonValue[]): CJsonValue => ({ kind: 'array', items }),
  object: (members: readonly (readonly [string, CJsonValue])[]): CJsonObject => ({
    kind: 'object',
    members: members.map(([key, value]) => ({ key: cString(key), value })),
  }),
};
