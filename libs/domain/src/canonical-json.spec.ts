import fc from 'fast-check';
import { canonicalJson } from './canonical-json';

/** The definition every stored evidence hash was made with (DESIGN §6): the writer must keep these bytes. */
function byDefinition(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sortKeys(JSON.parse(JSON.stringify(value ?? null)) as unknown));
}

/** Keys that enumerate differently: array indices, numbers that are not indices, unicode, the empty key. */
const key = fc.oneof(
  fc.string(),
  fc.nat({ max: 20 }).map(String),
  fc.constantFrom(
    '10',
    '9',
    '01',
    '-1',
    '4294967294',
    '4294967295',
    '1e3',
    '',
    'é',
    '\u{1F600}',
    '__proto__x',
  ),
);

const leaf = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(-0),
  fc.date({ noInvalidDate: true }),
  fc.constant(() => 1),
);

const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 5 }),
  object: fc.dictionary(key, tie('node'), { maxKeys: 6 }),
})).node;

describe('canonical JSON', () => {
  it('writes exactly the bytes of its definition for any value, nested and unnormalised', () => {
    fc.assert(
      fc.property(value, (v) => {
        if (typeof v === 'function') expect(() => canonicalJson(v)).toThrow(SyntaxError);
        else expect(canonicalJson(v)).toBe(byDefinition(v));
      }),
      { numRuns: 3000 },
    );
  });

  it('orders array-index keys as numbers before the other keys, as a rebuilt object enumerates them', () => {
    const v = { b: 1, '10': 2, a: 3, '9': 4, '01': 5, '4294967295': 6 };
    expect(canonicalJson(v)).toBe('{"9":4,"10":2,"01":5,"4294967295":6,"a":3,"b":1}');
    expect(canonicalJson(v)).toBe(byDefinition(v));
  });

  it('applies toJSON, unboxes primitives and drops what JSON drops', () => {
    const v = {
      at: new Date('2026-12-03T00:00:00.000Z'),
      n: Object(3) as unknown,
      gone: undefined,
      fn: () => 1,
      list: [undefined, () => 1, Number.NaN, -0],
      bytes: Buffer.from('hi'),
    };
    expect(canonicalJson(v)).toBe(byDefinition(v));
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('refuses a BigInt as JSON does', () => {
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });
});
