import fc from 'fast-check';
import { isStorableText, withoutUnstorableText, withStorableText } from './storable-text';

describe('text Postgres can store', () => {
  it('refuses U+0000 and lone surrogates, and takes a surrogate pair', () => {
    expect(isStorableText('bread-compact-wifi')).toBe(true);
    expect(isStorableText('🙂 ok')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('caf\uD83D')).toBe(false);
    expect(isStorableText('\uDE42 tail')).toBe(false);
  });

  it('drops every string and key that holds them, naming each by its path, and keeps the rest', () => {
    const body = {
      board: { type: 'x\u0000', name: 'kept' },
      partition_table: [{ label: 'nvs' }, { label: '\uD800' }],
      tags: ['a', '\uDC00', 'b'],
      'key\u0000': 1,
    };
    expect(withoutUnstorableText(body)).toEqual({
      value: { board: { name: 'kept' }, partition_table: [{ label: 'nvs' }, {}], tags: ['a', 'b'] },
      dropped: ['board.type', 'partition_table.1.label', 'tags.1', '?'],
    });
  });

  it('keeps a `__proto__` key a plain key', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"x":"\\u0000"}') as Record<string, unknown>;
    const { value } = withoutUnstorableText(parsed);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
  });

  it('leaves nothing unstorable in any JSON object, and hands a clean one back untouched', () => {
    const anyText = fc.string({ unit: 'binary' });
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        anyText,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value')),
        fc.dictionary(anyText, tie('value')),
      ),
    })).value;
    fc.assert(
      fc.property(fc.dictionary(anyText, json), (input) => {
        const { value, dropped } = withoutUnstorableText(input);
        expect(collectStrings(value).every(isStorableText)).toBe(true);
        if (dropped.length === 0) expect(value).toBe(input);
      }),
    );
  });
});

function collectStrings(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(collectStrings);
  if (node && typeof node === 'object') {
    return Object.entries(node).flatMap(([key, item]) => [key, ...collectStrings(item)]);
  }
  return [];
}

describe('withStorableText', () => {
  it('replaces U+0000 and lone surrogates with U+FFFD in strings and keys, keeping dates and byte arrays', () => {
    const at = new Date('2026-12-06T00:00:00Z');
    const bytes = Uint8Array.from([0, 1]);
    const cleaned = withStorableText({ text: 'a\u0000b', ['k\ud800']: ['\udfffx', 'ok'], at, bytes, n: 1 });
    expect(cleaned).toEqual({ text: 'a\uFFFDb', ['k\uFFFD']: ['\uFFFDx', 'ok'], at, bytes, n: 1 });
    expect(cleaned.at).toBe(at);
    expect(cleaned.bytes).toBe(bytes);
  });

  it('returns the very value when every string is storable, and keeps surrogate pairs', () => {
    const value = { text: 'emoji 😀', list: [{ deep: '需要用户确认' }] };
    expect(withStorableText(value)).toBe(value);
  });

  it('leaves no string Postgres refuses, whatever the input', () => {
    // Any UTF-16 code units, so lone surrogates and U+0000 come up often.
    const codeUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 12 });
    fc.assert(
      fc.property(
        fc.jsonValue(),
        codeUnits.map((units) => String.fromCharCode(...units)),
        (json, text) => {
          const cleaned = withStorableText({ json, text, [text]: json });
          const strings: string[] = [];
          JSON.stringify(cleaned, (key, v: unknown) => {
            strings.push(key);
            if (typeof v === 'string') strings.push(v);
            return v;
          });
          return strings.every(isStorableText);
        },
      ),
    );
  });
});
