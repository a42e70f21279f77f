import type { CJsonMember, CJsonObject, CJsonValue } from './cjson-value';

/** cJSON case_insensitive_strcmp folds with C tolower(): ASCII letters only. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * cJSON_GetObjectItem: the FIRST member whose key equals `key` ignoring ASCII case;
 * undefined when there is none or `value` is not an object.
 */
export function getItemCaseInsensitive(value: CJsonValue | undefined, key: string): CJsonValue | undefined {
  return membersMatching(value, key)[0]?.value;
}

/** Every member cJSON_GetObjectItem could have matched, in document order (the first is the one it returns). */
export function membersMatching(
  value: CJsonValue | undefined,
  key: string,
): (CJsonMember & { index: number })[] {
  if (value?.kind !== 'object') return [];
  const wanted = asciiLower(key);
  const found: (CJsonMember & { index: number })[] = [];
  value.members.forEach((member, index) => {
    if (asciiLower(member.key) === wanted) found.push({ ...member, index });
  });
  return found;
}

export function isCJsonObject(value: CJsonValue | undefined): value is CJsonObject {
  return value?.kind === 'object';
}

/** The string cJSON_IsString would accept, else undefined. */
export function cjsonStringValue(value: CJsonValue | undefined): string | undefined {
  return value?.kind === 'string' ? value.value : undefined;
}
