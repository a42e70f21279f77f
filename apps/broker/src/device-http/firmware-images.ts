import { LRUCache } from 'lru-cache';
import type { Pool } from '@fleet/db';

/**
 * Firmware images by sha256, from the registry's table, kept in memory while a rollout downloads the same image
 * thousands of times. Images are immutable (content-addressed), so a cached copy never goes stale.
 */
export class FirmwareImages {
  private readonly cache: LRUCache<string, Buffer>;

  constructor(
    private readonly pool: Pool,
    maxCacheBytes = 64 * 1024 * 1024,
  ) {
    this.cache = new LRUCache<string, Buffer>({
      maxSize: maxCacheBytes,
      sizeCalculation: (image) => Math.max(image.length, 1),
    });
  }

  async get(sha256: string): Promise<Buffer | undefined> {
    const cached = this.cache.get(sha256);
    if (cached) return cached;
    const { rows } = await this.pool.query<{ data: Buffer }>(
      'SELECT data FROM firmware_image WHERE sha256 = $1',
      [sha256],
    );
    const image = rows[0]?.data;
    if (image) this.cache.set(sha256, image);
    return image;
  }
}
