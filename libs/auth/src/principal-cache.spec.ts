import { PrincipalCache } from './principal-cache';

describe('the principal cache', () => {
  const live = () => {
    const cache = new PrincipalCache<{ who: string }>({ max: 10, ttlMs: 60_000 });
    cache.resume();
    return cache;
  };

  it('answers what a lookup stored until it is cleared', () => {
    const cache = live();
    cache.set('k', { who: 'ana' }, cache.begin());
    expect(cache.get('k')).toEqual({ who: 'ana' });
    cache.clear();
    expect(cache.get('k')).toBeUndefined();
  });

  it('does not store a lookup that began before a clear (a read that raced a revocation)', () => {
    const cache = live();
    const generation = cache.begin();
    cache.clear(); // the revocation is announced while the lookup is still reading the old row
    cache.set('k', { who: 'ana' }, generation);
    expect(cache.get('k')).toBeUndefined();
  });

  it('answers and stores nothing before it is resumed or while suspended', () => {
    const cache = new PrincipalCache<{ who: string }>({ max: 10, ttlMs: 60_000 });
    cache.set('k', { who: 'ana' }, cache.begin());
    expect(cache.get('k')).toBeUndefined();
    cache.resume();
    cache.set('k', { who: 'ana' }, cache.begin());
    cache.suspend();
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', { who: 'ana' }, cache.begin());
    cache.resume();
    expect(cache.get('k')).toBeUndefined();
  });

  it('does not store an entry whose own lifetime is already over (an expired session)', () => {
    const cache = live();
    cache.set('k', { who: 'ana' }, cache.begin(), 0);
    expect(cache.get('k')).toBeUndefined();
  });

  it('keeps at most its maximum, dropping the least recently used', () => {
    const cache = new PrincipalCache<{ who: string }>({ max: 2, ttlMs: 60_000 });
    cache.resume();
    for (const k of ['a', 'b', 'c']) cache.set(k, { who: k }, cache.begin());
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toEqual({ who: 'c' });
  });
});
