import { createHash } from 'node:crypto';
import { buildEspImage } from '@fleet/protocol';

/**
 * What a firmware image says about itself: the fields of `esp_app_desc_t`. The simulator keeps this per OTA slot,
 * and the platform's firmware registry parses the same bytes out of a real `.bin`.
 */
export interface AppImage {
  readonly version: string;
  readonly projectName: string;
  /** `__TIME__`, e.g. `08:33:45`. */
  readonly time: string;
  /** `__DATE__`, e.g. `Aug  8 2026` (day space-padded). */
  readonly date: string;
  readonly idfVersion: string;
  /** 64 hex digits. */
  readonly elfSha256: string;
}

// ESP-IDF esp_app_format.h: the image header (24 bytes) and the first segment header (8 bytes) come first, so the
// app descriptor sits at offset 32.
export const APP_DESC_OFFSET = 32;
export const APP_DESC_MAGIC = 0xabcd5432;
// magic u32, secure_version u32, reserved[2] u32, version[32], project_name[32], time[16], date[16], idf_ver[32],
// app_elf_sha256[32], then reserved words up to 256 bytes.
const FIELDS = {
  version: [16, 32],
  projectName: [48, 32],
  time: [80, 16],
  date: [96, 16],
  idfVersion: [112, 32],
} as const;
const ELF_SHA = [144, 32] as const;
export const APP_DESC_SIZE = 256;

export type AppImageError = 'too_short' | 'bad_magic' | 'empty_version';

/** Reads `esp_app_desc_t` from an image; the device refuses an image where this fails. */
export function parseAppImage(
  image: Uint8Array,
): { ok: true; image: AppImage } | { ok: false; error: AppImageError } {
  if (image.length < APP_DESC_OFFSET + APP_DESC_SIZE) return { ok: false, error: 'too_short' };
  const desc = Buffer.from(image.buffer, image.byteOffset + APP_DESC_OFFSET, APP_DESC_SIZE);
  if (desc.readUInt32LE(0) !== APP_DESC_MAGIC) return { ok: false, error: 'bad_magic' };
  const text = ([offset, length]: readonly [number, number]) => {
    const raw = desc.subarray(offset, offset + length);
    const nul = raw.indexOf(0);
    return raw.subarray(0, nul === -1 ? length : nul).toString('latin1');
  };
  const version = text(FIELDS.version);
  if (version === '') return { ok: false, error: 'empty_version' };
  return {
    ok: true,
    image: {
      version,
      projectName: text(FIELDS.projectName),
      time: text(FIELDS.time),
      date: text(FIELDS.date),
      idfVersion: text(FIELDS.idfVersion),
      elfSha256: desc.subarray(ELF_SHA[0], ELF_SHA[0] + ELF_SHA[1]).toString('hex'),
    },
  };
}

/**
 * An image in the real layout (libs/protocol buildEspImage: header, a DROM segment opening with the descriptor,
 * code segments, the checksum and the appended SHA-256), about `padTo` bytes in all, for an esp32s3 with 4 MB
 * flash unless told otherwise. Fields longer than the C arrays are cut as strncpy would (no terminator kept).
 */
export function buildAppImage(
  input: Partial<AppImage> & { version: string },
  padTo = 4096,
  header: { chipId?: number; flashSize?: number } = {},
): Buffer {
  const image = appImageDefaults(input);
  return buildEspImage({
    version: image.version,
    projectName: image.projectName,
    compileTime: image.time,
    compileDate: image.date,
    idfVersion: image.idfVersion,
    elfSha256: image.elfSha256,
    size: Math.max(padTo, APP_DESC_OFFSET + APP_DESC_SIZE),
    ...header,
  });
}

/** The descriptor of a build: project `xiaozhi`, ESP-IDF v5.5.2, a compile date, an ELF hash derived from the version. */
export function appImageDefaults(input: Partial<AppImage> & { version: string }): AppImage {
  return {
    projectName: 'xiaozhi',
    time: '08:33:45',
    date: 'Aug  8 2026',
    idfVersion: 'v5.5.2',
    elfSha256: createHash('sha256').update(`xiaozhi ${input.version}`).digest('hex'),
    ...input,
  };
}

/** xiaozhi §4.2: `compile_time` is `__DATE__ "T" __TIME__ "Z"`, not ISO. */
export function compileTimeOf(image: AppImage): string {
  return `${image.date}T${image.time}Z`;
}
