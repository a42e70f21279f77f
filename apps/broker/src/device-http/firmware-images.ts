import { LRUCache } from 'lru-cache';
import { createDatabase, type Pool } from '@fleet/db';
import { FirmwareImageRepository } from './firmware-image.repository';

/**
 * Firmware images by sha256, from the registry's table, kept in memory while a rollout downloads the same image
 * thousands of times. Images are immutable (content-addressed), so a cached copy never goes stale.
 */
export class FirmwareImages {
  private readonly cache: LRUCache<string, Buffer>;
  private readonly images: FirmwareImageRepository;

  constructor(pool: Pool, maxCacheBytes = 64 * 1024 * 1024) {
    this.images = new FirmwareImageRepository(createDatabase(pool));
    this.cache = new LRUCache<string, Buffer>({
      maxSize: maxCacheBytes,
      sizeCalculation: (image) => Math.max(image.length, 1),
    });
  }

  async get(sha256: string): Promise<Buffer | undefined> {
    const cached = this.cache.get(sha256);
    if (cached) return cached;
    const image = await this.images.findData(sha256);
    if (image) this.cache.set(sha256, image);
    return image;
  }
}
