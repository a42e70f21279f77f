import { randomFillSync } from 'node:crypto';

/**
 * Bytes from the CSPRNG handed out of a pre-filled pool, each byte once: one randomFillSync per pool instead of
 * one per id. `randomBytes(16)` costs about 5 µs on the 2-core benchmark machine (a call into OpenSSL each time),
 * twice per wrapped uplink for its traceparent, against about 0.5 µs from the pool; a publish costs the broker
 * about 45 µs in all (docs/BENCHMARKS.md §6). Node's randomUUID() caches its entropy the same way. Not for keys: those still come from randomBytes where they are made.
 */
export class RandomPool {
  private readonly pool: Buffer;
  private offset: number;

  constructor(size = 8192) {
    this.pool = Buffer.allocUnsafe(size);
    this.offset = size; // filled on first use
  }

  /** `bytes` random bytes as lower-case hex. */
  hex(bytes: number): string {
    const at = this.reserve(bytes);
    return this.pool.toString('hex', at, at + bytes);
  }

  uint32(): number {
    return this.pool.readUInt32BE(this.reserve(4));
  }

  private reserve(bytes: number): number {
    if (bytes > this.pool.length) throw new RangeError(`at most ${this.pool.length} bytes at a time`);
    if (this.offset + bytes > this.pool.length) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    const at = this.offset;
    this.offset += bytes;
    return at;
  }
}

/** The broker's pool for ids (traceparents, ssrcs). */
export const idRandomness = new RandomPool();
