import { createHash } from 'node:crypto';

/**
 * A synthetic ESP-IDF application image: esp_image_header_t, one segment header, esp_app_desc_t at offset 32
 * (esp_app_format.h), and some payload. Enough for the registry's parser; no device would boot it.
 */
export function buildEspImage(
  opts: {
    version?: string;
    project?: string;
    chipId?: number;
    magic?: number;
    descMagic?: number;
    size?: number;
  } = {},
): Buffer {
  const image = Buffer.alloc(opts.size ?? 4096);
  image[0] = opts.magic ?? 0xe9;
  image[1] = 3; // segment count
  image.writeUInt16LE(opts.chipId ?? 9, 12); // esp32s3
  image.writeUInt32LE(0x3c000020, 24); // first segment: load address
  image.writeUInt32LE(256, 28); // ...and length
  const desc = 32;
  image.writeUInt32LE(opts.descMagic ?? 0xabcd5432, desc);
  image.write(opts.version ?? '1.7.2', desc + 16, 32, 'ascii');
  image.write(opts.project ?? 'xiaozhi', desc + 48, 32, 'ascii');
  image.write('12:00:00', desc + 80, 16, 'ascii');
  image.write('Jan  1 2026', desc + 96, 16, 'ascii');
  image.write('v5.4.1', desc + 112, 32, 'ascii');
  createHash('sha256')
    .update('elf')
    .digest()
    .copy(image, desc + 144);
  image.fill(0x5a, 512); // "code"
  return image;
}
