// ESP-IDF app image layout (components/bootloader_support/include/esp_app_format.h):
// esp_image_header_t (24 bytes) + the first esp_image_segment_header_t (8 bytes), then esp_app_desc_t at 32.

const IMAGE_MAGIC = 0xe9; // ESP_IMAGE_HEADER_MAGIC
const APP_DESC_MAGIC = 0xabcd5432; // ESP_APP_DESC_MAGIC_WORD
const APP_DESC_OFFSET = 32;
const APP_DESC_SIZE = 256;

/** esp_chip_id_t values (esp_app_format.h). */
export const ESP_CHIPS: Readonly<Record<number, string>> = {
  0x0000: 'esp32',
  0x0002: 'esp32s2',
  0x0005: 'esp32c3',
  0x0009: 'esp32s3',
  0x000c: 'esp32c2',
  0x000d: 'esp32c6',
  0x0010: 'esp32h2',
  0x0012: 'esp32p4',
  0x0014: 'esp32c61',
  0x0017: 'esp32c5',
};

export interface EspAppImage {
  chipId: number;
  chip: string;
  segmentCount: number;
  secureVersion: number;
  version: string;
  projectName: string;
  compileTime: string;
  compileDate: string;
  idfVersion: string;
  /** sha256 of the ELF the image was built from (hex). */
  elfSha256: string;
}

export type ParseResult = { ok: true; image: EspAppImage } | { ok: false; reason: string };

export function parseEspAppImage(data: Buffer): ParseResult {
  if (data.length < APP_DESC_OFFSET + APP_DESC_SIZE) {
    return { ok: false, reason: `${data.length} bytes is too short for an ESP app image` };
  }
  if (data[0] !== IMAGE_MAGIC) {
    return { ok: false, reason: `not an ESP app image: byte 0 is 0x${hex(data[0]!)}, not 0xe9` };
  }
  const chipId = data.readUInt16LE(12);
  const chip = ESP_CHIPS[chipId];
  if (!chip) return { ok: false, reason: `unknown chip id ${chipId}` };
  const desc = APP_DESC_OFFSET;
  const magic = data.readUInt32LE(desc);
  if (magic !== APP_DESC_MAGIC) {
    return {
      ok: false,
      reason: `no app descriptor at offset 32 (magic 0x${magic.toString(16)}, not 0xabcd5432)`,
    };
  }
  const fields = {
    version: text(data, desc + 16, 32),
    projectName: text(data, desc + 48, 32),
    compileTime: text(data, desc + 80, 16),
    compileDate: text(data, desc + 96, 16),
    idfVersion: text(data, desc + 112, 32),
  };
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined)
      return { ok: false, reason: `app descriptor field ${name} is not printable text` };
  }
  return {
    ok: true,
    image: {
      chipId,
      chip,
      segmentCount: data[1]!,
      secureVersion: data.readUInt32LE(desc + 4),
      version: fields.version!,
      projectName: fields.projectName!,
      compileTime: fields.compileTime!,
      compileDate: fields.compileDate!,
      idfVersion: fields.idfVersion!,
      elfSha256: data.subarray(desc + 144, desc + 176).toString('hex'),
    },
  };
}

/** A NUL-terminated char[n] of printable ASCII (undefined when it holds anything else). */
function text(data: Buffer, offset: number, length: number): string | undefined {
  const field = data.subarray(offset, offset + length);
  const end = field.indexOf(0);
  const bytes = end === -1 ? field : field.subarray(0, end);
  return bytes.every((b) => b >= 0x20 && b < 0x7f) ? bytes.toString('ascii') : undefined;
}

function hex(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}
