import { toCJson } from './cjson-convert';
import { formatCJsonNumber } from './cjson-number';
import { escapeCJsonString, printCJson } from './cjson-print';
import { cjson } from './cjson-value';

describe('printCJson, cJSON_PrintUnformatted', () => {
  it('escapes quote, backslash and control characters the way cJSON does, and nothing else', () => {
    expect(escapeCJsonString('a"b\\c/d\b\f\n\r\t\u0001\u001f\u007f é 小')).toBe(
      '"a\\"b\\\\c/d\\b\\f\\n\\r\\t\\u0001\\u001f\u007f é 小"',
    );
  });

  it('writes members in insertion order without whitespace', () => {
    expect(printCJson(toCJson({ b: [1, true, null], a: { c: 'x' } }))).toBe(
      '{"b":[1,true,null],"a":{"c":"x"}}',
    );
  });

  it('prints integral values as %d and others as the shortest of %1.15g and %1.17g', () => {
    expect(formatCJsonNumber(42, 42)).toBe('42');
    expect(printCJson(cjson.number(42.5))).toBe('42.5');
    expect(printCJson(cjson.number(0.1 + 0.2))).toBe('0.3');
    expect(printCJson(cjson.number(1e10))).toBe('10000000000');
    expect(printCJson(cjson.number(1e15))).toBe('1e+15');
    expect(printCJson(cjson.number(1.5e-7))).toBe('1.5e-07');
    expect(printCJson(cjson.number(0.00012))).toBe('0.00012');
    // 15 digits miss 1/3 by more than DBL_EPSILON, so cJSON falls back to 17
    expect(printCJson(cjson.number(1 / 3))).toBe('0.33333333333333331');
    expect(printCJson(cjson.number(-0))).toBe('0');
    expect(printCJson(cjson.number(Number.NaN))).toBe('null');
  });

  it('turns a JavaScript value into the same text JSON.stringify gives for plain data', () => {
    const value = { audio_speaker: { volume: 70 }, chip: { temperature: 42.5 }, list: ['a', 'b'], ok: false };
    expect(printCJson(toCJson(value))).toBe(JSON.stringify(value));
  });
});
