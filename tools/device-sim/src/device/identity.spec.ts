import { macFor, uuidFor } from './identity';

describe('simulated identities', () => {
  it('fills the MAC after the prefix with the index', () => {
    expect(macFor('02:5a:00', 0)).toBe('02:5a:00:00:00:00');
    expect(macFor('02:5A:00', 10_001)).toBe('02:5a:00:00:27:11');
    expect(macFor('a0:85:e3:f4:49', 0x34)).toBe('a0:85:e3:f4:49:34');
  });

  it('refuses a prefix or an index that cannot make a MAC', () => {
    expect(() => macFor('02:5a:00:00:00:00', 0)).toThrow();
    expect(() => macFor('zz', 0)).toThrow();
    expect(() => macFor('02:5a:00:00:00', 256)).toThrow();
  });

  it('derives a stable UUID v4-shaped Client-Id per MAC', () => {
    const uuid = uuidFor('a0:85:e3:f4:49:34');
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidFor('a0:85:e3:f4:49:34')).toBe(uuid);
    expect(uuidFor('a0:85:e3:f4:49:35')).not.toBe(uuid);
  });
});
