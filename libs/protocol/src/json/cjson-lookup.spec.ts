import { fromCJson } from './cjson-convert';
import { getItemCaseInsensitive, membersMatching } from './cjson-lookup';
import { parseCJson } from './cjson-parse';
import type { CJsonValue } from './cjson-value';

const doc = (text: string): CJsonValue => {
  const r = parseCJson(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('getItemCaseInsensitive, cJSON_GetObjectItem', () => {
  it('matches keys ignoring ASCII case', () => {
    expect(getItemCaseInsensitive(doc('{"Volume":30}'), 'volume')).toEqual({
      kind: 'number',
      valuedouble: 30,
      valueint: 30,
    });
  });

  it('returns the first of duplicate keys, whatever their case', () => {
    expect(getItemCaseInsensitive(doc('{"VOLUME":80,"volume":30}'), 'volume')).toMatchObject({
      valuedouble: 80,
    });
    expect(getItemCaseInsensitive(doc('{"id":901,"id":"x"}'), 'id')).toMatchObject({
      kind: 'number',
      valueint: 901,
    });
  });

  it('folds only ASCII letters', () => {
    expect(getItemCaseInsensitive(doc('{"É":1}'), 'é')).toBeUndefined();
  });

  it('finds nothing in arrays or scalars', () => {
    expect(getItemCaseInsensitive(doc('[{"a":1}]'), 'a')).toBeUndefined();
    expect(getItemCaseInsensitive(undefined, 'a')).toBeUndefined();
  });

  it('lists every member the lookup could have matched, first one first', () => {
    expect(membersMatching(doc('{"a":1,"A":2,"b":3}'), 'a').map((m) => [m.key, m.index])).toEqual([
      ['a', 0],
      ['A', 1],
    ]);
  });

  it('gives a plain object where the first duplicate wins, unlike JSON.parse', () => {
    const text = '{"volume":500,"volume":50,"__proto__":{"x":1}}';
    const plain = fromCJson(doc(text)) as Record<string, unknown>;
    expect(plain['volume']).toBe(500);
    expect((JSON.parse(text) as Record<string, unknown>)['volume']).toBe(50);
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.keys(plain)).toEqual(['volume', '__proto__']);
  });
});
