import { parseCJson } from './cjson-parse';
import { printCJson } from './cjson-print';
import type { CJsonValue } from './cjson-value';

function parsed(text: string): CJsonValue {
  const result = parseCJson(text);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('parseCJson, the firmware view of JSON', () => {
  it('keeps every duplicate key in document order', () => {
    expect(parsed('{"volume":500,"volume":50}')).toEqual({
      kind: 'object',
      members: [
        { key: 'volume', value: { kind: 'number', valuedouble: 500, valueint: 500 } },
        { key: 'volume', value: { kind: 'number', valuedouble: 50, valueint: 50 } },
      ],
    });
  });

  it('saturates valueint at the int32 limits and truncates fractions toward zero', () => {
    const numbers = parsed('[2147483648,-2147483649,3.9,-3.9,1e10,1e999,-0.5]');
    expect(numbers.kind === 'array' && numbers.items.map((n) => n.kind === 'number' && n.valueint)).toEqual([
      2147483647, -2147483648, 3, -3, 2147483647, 2147483647, 0,
    ]);
  });

  it('ignores whatever follows the first value, as cJSON_Parse does', () => {
    expect(printCJson(parsed(' \t{"a":1} trailing garbage'))).toBe('{"a":1}');
  });

  it('ends the input at a NUL byte and cuts strings at an escaped NUL', () => {
    expect(printCJson(parsed('{"m":"ping\\u0000pong"}\u0000{'))).toBe('{"m":"ping"}');
  });

  it('skips a UTF-8 byte order mark and reads bytes as UTF-8', () => {
    expect(printCJson(parsed('\uFEFF{"t":"小智"}'))).toBe('{"t":"小智"}');
    const bytes = new TextEncoder().encode('{"t":"小智"}');
    expect(parseCJson(bytes)).toEqual(parseCJson('{"t":"小智"}'));
  });

  it('decodes surrogate pairs and refuses lone surrogates', () => {
    expect(printCJson(parsed('"\\ud83d\\ude00"'))).toBe('"😀"');
    expect(parseCJson('"\\ude00"').ok).toBe(false);
    expect(parseCJson('"\\ud83d x"').ok).toBe(false);
  });

  it('accepts what strtod accepts after a leading digit or minus', () => {
    expect(printCJson(parsed('[01,1.,-.5,1.e2]'))).toBe('[1,1,-0.5,100]');
  });

  it.each(['', '{', '{"a"}', '{"a":1,}', '[1,]', '"\\x"', '+1', '.5', "{'a':1}", '"abc', 'nul', '-'])(
    'returns an error instead of throwing for %j',
    (text) => {
      const result = parseCJson(text);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.kind).toBe('invalid_json');
    },
  );

  it('refuses nesting deeper than cJSON allows', () => {
    expect(parseCJson('['.repeat(1000) + ']'.repeat(1000)).ok).toBe(true);
    expect(parseCJson('['.repeat(1001) + ']'.repeat(1001)).ok).toBe(false);
  });
});
