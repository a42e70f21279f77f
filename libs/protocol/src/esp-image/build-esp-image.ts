import { createHash } from 'node:crypto';
import {
  APP_DESC_ELF_SHA256,
  APP_DESC_FIELDS,
  APP_DESC_MAGIC,
  APP_DESC_SECURE_VERSION,
  APP_DESC_SIZE,
  CHECKSUM_SEED,
  HEADER,
  IMAGE_HEADER_SIZE,
  IMAGE_MAGIC,
  SEGMENT_HEADER_SIZE,
} from './esp-image-format';

/** What a build puts in its image; every field has the default of an esp32s3 xiaozhi build. */
export interface EspImageSpec {
  version: string;
  projectName?: string;
  compileTime?: string;
  compileDate?: string;
  idfVersion?: string;
  /** 64 hex digits; derived from the version when absent. */
  elfSha256?: string;
  secureVersion?: number;
  chipId?: number;
  /** esp_image_spi_mode_t code (2 = dio). */
  flashMode?: number;
  /** esp_image_spi_freq_t code (0xf = 80 MHz on most chips). */
  flashFreq?: number;
  /** esp_image_flash_size_t code (2 = 4 MB, 4 = 16 MB). */
  flashSize?: number;
  /** Append the SHA-256 and set hash_appended (esptool does unless told not to). */
  hashAppended?: boolean;
  /** Segments in all, the descriptor's DROM segment included. */
  segments?: number;
  /** About how many bytes the image should have. */
  size?: number;
  /** Overrides for images that must be wrong in one way only (the checksum and hash are computed after them). */
  magic?: number;
  descMagic?: number;
}

const DROM_ADDR = 0x3c000020;
const IROM_ADDR = 0x42000020;

/**
 * A synthetic application image in the real layout (see esp-image-format.ts): header, a DROM segment that opens
 * with esp_app_desc_t, code segments, the XOR checksum at the end of a 16-byte block and the appended SHA-256.
 * The bootloader's checks pass on it; no chip could run its code. Fields longer than the C arrays are cut as
 * strncpy would cut them.
 */
export function buildEspImage(spec: EspImageSpec): Buffer {
  const count = Math.max(1, spec.segments ?? 3);
  const size = spec.size ?? 4096;
  const fixed = IMAGE_HEADER_SIZE + count * SEGMENT_HEADER_SIZE + APP_DESC_SIZE + 48;
  const codeWords = Math.max(0, Math.floor((size - fixed) / 4));
  const perSegment = count > 1 ? Math.floor(codeWords / (count - 1)) : 0;
  const lengths = [APP_DESC_SIZE, ...Array.from({ length: count - 1 }, () => perSegment * 4)];

  const body = lengths.reduce((n, l) => n + SEGMENT_HEADER_SIZE + l, IMAGE_HEADER_SIZE);
  const checksummed = (body + 1 + 15) & ~15;
  const hashed = spec.hashAppended ?? true;
  const image = Buffer.alloc(checksummed + (hashed ? 32 : 0));

  image[HEADER.magic] = spec.magic ?? IMAGE_MAGIC;
  image[HEADER.segmentCount] = count;
  image[HEADER.spiMode] = spec.flashMode ?? 2;
  image[HEADER.spiSpeedSize] = ((spec.flashSize ?? 2) << 4) | (spec.flashFreq ?? 0xf);
  image.writeUInt32LE(0x40375a88, HEADER.entryAddr);
  image[8] = 0xee; // wp_pin: disabled
  image.writeUInt16LE(spec.chipId ?? 9, HEADER.chipId);
  image.writeUInt16LE(0xffff, HEADER.maxChipRevFull);
  image[HEADER.hashAppended] = hashed ? 1 : 0;

  let at = IMAGE_HEADER_SIZE;
  let checksum = CHECKSUM_SEED;
  lengths.forEach((length, i) => {
    image.writeUInt32LE(i === 0 ? DROM_ADDR : IROM_ADDR + i * 0x10000, at);
    image.writeUInt32LE(length, at + 4);
    const data = image.subarray(at + SEGMENT_HEADER_SIZE, at + SEGMENT_HEADER_SIZE + length);
    if (i === 0) writeAppDescriptor(data, spec);
    else for (let j = 0; j < length; j++) data[j] = (j * 31 + i * 7) & 0xff;
    for (const b of data) checksum ^= b;
    at += SEGMENT_HEADER_SIZE + length;
  });
  image[checksummed - 1] = checksum;
  if (hashed) createHash('sha256').update(image.subarray(0, checksummed)).digest().copy(image, checksummed);
  return image;
}

function writeAppDescriptor(desc: Buffer, spec: EspImageSpec): void {
  desc.writeUInt32LE(spec.descMagic ?? APP_DESC_MAGIC, 0);
  desc.writeUInt32LE(spec.secureVersion ?? 0, APP_DESC_SECURE_VERSION);
  const values: Record<keyof typeof APP_DESC_FIELDS, string> = {
    version: spec.version,
    projectName: spec.projectName ?? 'xiaozhi',
    compileTime: spec.compileTime ?? '08:33:45',
    compileDate: spec.compileDate ?? 'Aug  8 2026',
    idfVersion: spec.idfVersion ?? 'v5.5.2',
  };
  for (const [name, [offset, length]] of Object.entries(APP_DESC_FIELDS) as [
    keyof typeof APP_DESC_FIELDS,
    readonly [number, number],
  ][]) {
    desc.write(values[name].slice(0, length), offset, length, 'latin1');
  }
  const elf = spec.elfSha256 ?? createHash('sha256').update(`xiaozhi ${spec.version}`).digest('hex');
  Buffer.from(elf, 'hex').copy(desc, APP_DESC_ELF_SHA256[0], 0, APP_DESC_ELF_SHA256[1]);
}

/** Rewrites the checksum byte and the appended hash after a test changed segment bytes on purpose. */
export function resealEspImage(image: Buffer): Buffer {
  const count = image[HEADER.segmentCount]!;
  let at = IMAGE_HEADER_SIZE;
  let checksum = CHECKSUM_SEED;
  for (let i = 0; i < count; i++) {
    const length = image.readUInt32LE(at + 4);
    for (const b of image.subarray(at + SEGMENT_HEADER_SIZE, at + SEGMENT_HEADER_SIZE + length))
      checksum ^= b;
    at += SEGMENT_HEADER_SIZE + length;
  }
  const checksummed = (at + 1 + 15) & ~15;
  image[checksummed - 1] = checksum;
  if (image[HEADER.hashAppended] === 1) {
    createHash('sha256').update(image.subarray(0, checksummed)).digest().copy(image, checksummed);
  }
  return image;
}
