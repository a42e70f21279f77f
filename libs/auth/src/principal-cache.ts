import { LRUCache } from 'lru-cache';

export interface PrincipalCacheOptions {
  /** Credentials remembered at most (the least recently used go first). */
  max: number;
  /** A backstop: an entry is looked up again after this long even if no change was announced. */
  ttlMs: number;
}

/**
 * Who a credential (an API key's prefix, a session token's hash) belongs to, remembered between requests so that
 * a busy client does not cost a database read per request. It is only as good as its invalidation: `clear()`
 * on every announced change of a key, session or person, and `suspend()` while announcements may be missed (the
 * cache then answers nothing and stores nothing until `resume()`). A lookup that started before a `clear()` is
 * not stored when it ends (`begin()` hands out the generation it must still match), so a read that raced a
 * revocation cannot bring the revoked credential back.
 */
export class PrincipalCache<T extends object> {
  private readonly entries: LRUCache<string, T>;
  private generation = 0;
  private live = false;

  constructor(o: PrincipalCacheOptions) {
    this.entries = new LRUCache<string, T>({ max: o.max, ttl: o.ttlMs, ttlAutopurge: false });
  }

  get enabled(): boolean {
    return this.live;
  }

  get(key: string): T | undefined {
    return this.live ? this.entries.get(key) : undefined;
  }

  /** The generation a lookup starts in; pass it to `set`. */
  begin(): number {
    return this.generation;
  }

  /** Stores what a lookup found, unless the cache was cleared or suspended since it began. `ttlMs` may shorten it. */
  set(key: string, value: T, generation: number, ttlMs?: number): void {
    if (!this.live || generation !== this.generation) return;
    if (ttlMs !== undefined && ttlMs <= 0) return;
    this.entries.set(key, value, ttlMs !== undefined ? { ttl: ttlMs } : undefined);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Changes may go unannounced (the listener lost its connection): forget everything and store nothing. */
  suspend(): void {
    this.live = false;
    this.clear();
  }

  /** Announcements arrive again: start from nothing, since changes made meanwhile were not heard. */
  resume(): void {
    this.clear();
    this.live = true;
  }
}
