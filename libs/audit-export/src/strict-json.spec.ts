import fc from 'fast-check';
import { decodeStrictUtf8, DuplicateKeyError, parseStrictJson, StrictJsonError } from './strict-json';

describe('strict JSON', () => {
  it('reads whatever JSON.stringify writes exactly as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(parseStrictJson(text)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('refuses a name given twice in one object and says where, however the second is spelled', () => {
    const cases: [string, string, string][] = [
      ['{"a":1,"a":2}', '', 'a'],
      ['{"rows":[{"x":1},{"verdict":"device_error","verdict":"verified"}]}', 'rows[1]', 'verdict'],
      ['{"a":{"b":[0,[1,{"c":1,"\\u0063":2}]]}}', 'a.b[1][1]', 'c'],
      ['{"odd key":{"k":1, "k" :2}}', '["odd key"]', 'k'],
    ];
    for (const [text, path, key] of cases) {
      let thrown: unknown;
      try {
        parseStrictJson(text);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(DuplicateKeyError);
      expect(thrown).toMatchObject({ path, key });
    }
  });

  it('keeps apart what only looks alike: the same name in sibling objects, names inside strings, values equal to names', () => {
    expect(parseStrictJson('[{"a":1},{"a":2}]')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parseStrictJson('{"a":"\\"a\\":1,","b":{"a":"a"}}')).toEqual({ a: '"a":1,', b: { a: 'a' } });
    expect(parseStrictJson('{"a":["a","a"],"b":"a"}')).toEqual({ a: ['a', 'a'], b: 'a' });
  });

  it('refuses text that is not JSON, and bytes that are not UTF-8', () => {
    expect(() => parseStrictJson('{"a":1,}')).toThrow(StrictJsonError);
    expect(() => decodeStrictUtf8(Buffer.from([0x22, 0xc3, 0x28, 0x22]))).toThrow('not UTF-8');
    expect(decodeStrictUtf8(Buffer.from('"é"', 'utf8'))).toBe('"é"');
  });

  it('walks nesting far deeper than a stack would allow', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(() => parseStrictJson(`{"a":${deep},"a":1}`)).toThrow(DuplicateKeyError);
  });
});
