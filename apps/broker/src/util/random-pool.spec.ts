import { RandomPool } from './random-pool';

describe('the random pool', () => {
  it('hands out every byte once, refilling when it runs out', () => {
    const pool = new RandomPool(64);
    const ids = Array.from({ length: 100 }, () => pool.hex(16));
    expect(ids.every((id) => /^[0-9a-f]{32}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives uint32 values across the whole range and refuses requests larger than the pool', () => {
    const pool = new RandomPool(64);
    const values = Array.from({ length: 1000 }, () => pool.uint32());
    expect(values.every((v) => Number.isInteger(v) && v >= 0 && v <= 0xffff_ffff)).toBe(true);
    expect(Math.max(...values)).toBeGreaterThan(0x8000_0000);
    expect(() => pool.hex(65)).toThrow(RangeError);
  });
});
