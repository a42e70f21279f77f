import { createHash } from 'node:crypto';
import { err, ok, type Result } from '../result';
import { failure, hexByte, type EspImageFailure } from './esp-image-checks';
import {
  APP_DESC_ELF_SHA256,
  APP_DESC_FIELDS,
  APP_DESC_MAGIC,
  APP_DESC_OFFSET,
  APP_DESC_SECURE_VERSION,
  APP_DESC_SIZE,
  CHECKSUM_SEED,
  ESP_CHIPS,
  FLASH_MODES,
  flashSizeBytesOf,
  HEADER,
  IMAGE_HEADER_SIZE,
  IMAGE_MAGIC,
  MAX_SEGMENT_BYTES,
  MAX_SEGMENTS,
  SEGMENT_HEADER_SIZE,
  SHA256_SIZE,
  type FlashMode,
} from './esp-image-format';

export interface EspImageSegment {
  readonly loadAddr: number;
  /** Where its data starts in the file. */
  readonly offset: number;
  readonly length: number;
}

/** The flash settings the header was built with (esptool --flash_mode/--flash_freq/--flash_size). */
export interface EspImageFlash {
  readonly mode: FlashMode | undefined;
  readonly modeCode: number;
  /** esp_image_spi_freq_t: its meaning depends on the chip, so it is kept as the code. */
  readonly freqCode: number;
  readonly sizeCode: number;
  readonly sizeBytes: number | undefined;
}

/** An image that passed every check the bootloader runs on it, with what its header and descriptor say. */
export interface EspImage {
  readonly chipId: number;
  readonly chip: string;
  readonly flash: EspImageFlash;
  /** major × 100 + minor; 0xffff for no maximum. */
  readonly minChipRevision: number;
  readonly maxChipRevision: number;
  readonly segmentCount: number;
  readonly segments: readonly EspImageSegment[];
  readonly checksum: number;
  readonly hashAppended: boolean;
  /** The bytes the bootloader reads: header, segments, padding, checksum and the hash when appended. */
  readonly imageLength: number;
  readonly secureVersion: number;
  readonly version: string;
  readonly projectName: string;
  readonly compileTime: string;
  readonly compileDate: string;
  readonly idfVersion: string;
  /** sha256 of the ELF the image was built from (hex). */
  readonly elfSha256: string;
}

/**
 * Verifies an application image the way the device will before booting it (esp_image_format.c: header,
 * segments, checksum, appended SHA-256) and reads its app descriptor (esp_app_format.h). Extra bytes after the
 * image are ignored, as the bootloader ignores the rest of the partition.
 */
export function verifyEspImage(data: Uint8Array): Result<EspImage, EspImageFailure> {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const minimum = APP_DESC_OFFSET + APP_DESC_SIZE;
  if (bytes.length < minimum) {
    return err(
      failure(
        'length',
        `at least ${minimum} bytes`,
        `${bytes.length}`,
        `${bytes.length} bytes is too short for an ESP app image`,
      ),
    );
  }
  const magic = bytes[HEADER.magic]!;
  if (magic !== IMAGE_MAGIC) {
    return err(
      failure(
        'magic',
        hexByte(IMAGE_MAGIC),
        hexByte(magic),
        `not an ESP app image: byte 0 is ${hexByte(magic)}, not 0xe9`,
      ),
    );
  }
  const chipId = bytes.readUInt16LE(HEADER.chipId);
  const chip = ESP_CHIPS[chipId];
  if (!chip)
    return err(failure('chip_id', 'a known esp_chip_id_t', `${chipId}`, `unknown chip id ${chipId}`));

  const segmentsRead = readSegments(bytes);
  if (!segmentsRead.ok) return segmentsRead;
  const segments = segmentsRead.value;

  const descriptor = readAppDescriptor(bytes, segments[0]!);
  if (!descriptor.ok) return descriptor;

  const last = segments[segments.length - 1]!;
  const unpadded = last.offset + last.length;
  // esp_image_format.c process_checksum: one byte for the checksum, then up to the next 16-byte boundary.
  const checksummed = (unpadded + 1 + 15) & ~15;
  if (bytes.length < checksummed) {
    return err(
      failure(
        'length',
        `${checksummed} bytes up to the checksum`,
        `${bytes.length}`,
        `the image ends before its checksum byte at offset ${checksummed - 1}`,
      ),
    );
  }
  let checksum = CHECKSUM_SEED;
  for (const s of segments) checksum = xorInto(checksum, bytes, s.offset, s.offset + s.length);
  const stored = bytes[checksummed - 1]!;
  if (stored !== checksum) {
    return err(
      failure(
        'checksum',
        hexByte(checksum),
        hexByte(stored),
        `the segment checksum is ${hexByte(checksum)}, but the image stores ${hexByte(stored)}: the device refuses it`,
      ),
    );
  }

  const hashAppended = bytes[HEADER.hashAppended] === 1;
  let imageLength = checksummed;
  if (hashAppended) {
    imageLength += SHA256_SIZE;
    if (bytes.length < imageLength) {
      return err(
        failure(
          'length',
          `${imageLength} bytes with the appended SHA-256`,
          `${bytes.length}`,
          'the header says a SHA-256 is appended, but the image ends before it',
        ),
      );
    }
    const computed = createHash('sha256').update(bytes.subarray(0, checksummed)).digest('hex');
    const appended = bytes.subarray(checksummed, imageLength).toString('hex');
    if (computed !== appended) {
      return err(
        failure(
          'sha256',
          computed,
          appended,
          'the appended SHA-256 does not match the image: the device refuses it',
        ),
      );
    }
  }

  const spiSpeedSize = bytes[HEADER.spiSpeedSize]!;
  const modeCode = bytes[HEADER.spiMode]!;
  const sizeCode = spiSpeedSize >> 4;
  return ok({
    chipId,
    chip,
    flash: {
      mode: FLASH_MODES[modeCode],
      modeCode,
      freqCode: spiSpeedSize & 0x0f,
      sizeCode,
      sizeBytes: flashSizeBytesOf(sizeCode),
    },
    minChipRevision: bytes.readUInt16LE(HEADER.minChipRevFull),
    maxChipRevision: bytes.readUInt16LE(HEADER.maxChipRevFull),
    segmentCount: segments.length,
    segments,
    checksum,
    hashAppended,
    imageLength,
    ...descriptor.value,
  });
}

function readSegments(bytes: Buffer): Result<EspImageSegment[], EspImageFailure> {
  const count = bytes[HEADER.segmentCount]!;
  if (count === 0 || count > MAX_SEGMENTS) {
    return err(
      failure(
        'segment_count',
        `1 to ${MAX_SEGMENTS}`,
        `${count}`,
        `the header declares ${count} segments; the bootloader takes 1 to ${MAX_SEGMENTS}`,
      ),
    );
  }
  const segments: EspImageSegment[] = [];
  let at = IMAGE_HEADER_SIZE;
  for (let i = 0; i < count; i++) {
    if (at + SEGMENT_HEADER_SIZE > bytes.length) {
      return err(
        failure(
          'segment_bounds',
          `segment ${i}'s header within the image`,
          `the image ends at ${bytes.length}`,
          `the image is truncated: segment ${i} of ${count} has no header`,
        ),
      );
    }
    const loadAddr = bytes.readUInt32LE(at);
    const length = bytes.readUInt32LE(at + 4);
    if (length % 4 !== 0 || length >= MAX_SEGMENT_BYTES) {
      return err(
        failure(
          'segment_length',
          'a multiple of 4 below 16 MB',
          `${length}`,
          `segment ${i} has an invalid length ${length}`,
        ),
      );
    }
    const offset = at + SEGMENT_HEADER_SIZE;
    if (offset + length > bytes.length) {
      return err(
        failure(
          'segment_bounds',
          `${offset + length} bytes for segment ${i}`,
          `${bytes.length}`,
          `the image is truncated: segment ${i} needs ${length} bytes from offset ${offset}`,
        ),
      );
    }
    segments.push({ loadAddr, offset, length });
    at = offset + length;
  }
  return segments.length
    ? { ok: true, value: segments }
    : err(failure('segment_count', '1', '0', 'no segments'));
}

type Descriptor = Pick<
  EspImage,
  'secureVersion' | 'version' | 'projectName' | 'compileTime' | 'compileDate' | 'idfVersion' | 'elfSha256'
>;

/** esp_app_desc_t opens the first segment; the app reads its version from there (esp_app_get_description). */
function readAppDescriptor(bytes: Buffer, first: EspImageSegment): Result<Descriptor, EspImageFailure> {
  const magic = bytes.readUInt32LE(APP_DESC_OFFSET);
  if (first.length < APP_DESC_SIZE || magic !== APP_DESC_MAGIC) {
    return err(
      failure(
        'app_descriptor',
        `0x${APP_DESC_MAGIC.toString(16)} at offset ${APP_DESC_OFFSET}`,
        `0x${magic.toString(16)}`,
        `no app descriptor at offset ${APP_DESC_OFFSET} (magic 0x${magic.toString(16)}, not 0xabcd5432, in a first segment of ${first.length} bytes)`,
      ),
    );
  }
  const fields: Partial<Record<keyof typeof APP_DESC_FIELDS, string>> = {};
  for (const [name, [offset, length]] of Object.entries(APP_DESC_FIELDS) as [
    keyof typeof APP_DESC_FIELDS,
    readonly [number, number],
  ][]) {
    const value = text(bytes, APP_DESC_OFFSET + offset, length);
    if (value === undefined) {
      return err(
        failure(
          'app_descriptor',
          `printable text in ${name}`,
          'other bytes',
          `app descriptor field ${name} is not printable text`,
        ),
      );
    }
    fields[name] = value;
  }
  const [shaOffset, shaLength] = APP_DESC_ELF_SHA256;
  return ok({
    secureVersion: bytes.readUInt32LE(APP_DESC_OFFSET + APP_DESC_SECURE_VERSION),
    version: fields.version!,
    projectName: fields.projectName!,
    compileTime: fields.compileTime!,
    compileDate: fields.compileDate!,
    idfVersion: fields.idfVersion!,
    elfSha256: bytes
      .subarray(APP_DESC_OFFSET + shaOffset, APP_DESC_OFFSET + shaOffset + shaLength)
      .toString('hex'),
  });
}

/**
 * The bootloader XORs 32-bit words and folds the result to a byte; that equals XOR over the bytes. Words are
 * read where the bytes are 4-aligned in memory (a 4 MB image in a fraction of the time of a byte loop).
 */
function xorInto(seed: number, bytes: Buffer, start: number, end: number): number {
  let at = start;
  let byte = seed;
  const absolute = bytes.byteOffset + start;
  if (absolute % 4 === 0) {
    const words = new Uint32Array(bytes.buffer, absolute, (end - start) >>> 2);
    let word = 0;
    for (let i = 0; i < words.length; i++) word ^= words[i]!;
    byte ^= (word ^ (word >>> 8) ^ (word >>> 16) ^ (word >>> 24)) & 0xff;
    at += words.length * 4;
  }
  for (; at < end; at++) byte ^= bytes[at]!;
  return byte;
}

/** A NUL-terminated char[n] of printable ASCII (undefined when it holds anything else). */
function text(data: Buffer, offset: number, length: number): string | undefined {
  const field = data.subarray(offset, offset + length);
  const end = field.indexOf(0);
  const bytes = end === -1 ? field : field.subarray(0, end);
  return bytes.every((b) => b >= 0x20 && b < 0x7f) ? bytes.toString('ascii') : undefined;
}
