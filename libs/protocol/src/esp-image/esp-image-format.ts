// The ESP-IDF application image as the second-stage bootloader reads it (components/bootloader_support:
// esp_app_format.h, esp_image_format.h, esp_image_format.c; esptool bin_image.py writes the same layout):
//
//   esp_image_header_t (24 B) | { esp_image_segment_header_t (8 B) + data } × segment_count
//   | zero padding so that the checksum byte ends a 16-byte block | checksum (1 B)
//   | SHA-256 of everything before it (32 B, only when the header's hash_appended is 1)
//
// The first segment (DROM, .flash.appdesc) starts with esp_app_desc_t, so the descriptor sits at offset 32.

export const IMAGE_HEADER_SIZE = 24;
export const SEGMENT_HEADER_SIZE = 8;
export const IMAGE_MAGIC = 0xe9; // ESP_IMAGE_HEADER_MAGIC
export const MAX_SEGMENTS = 16; // ESP_IMAGE_MAX_SEGMENTS
export const CHECKSUM_SEED = 0xef; // ESP_ROM_CHECKSUM_INITIAL
export const SHA256_SIZE = 32;
/** esp_image_format.c refuses a segment of 16 MB or more, or one whose length is not a whole number of words. */
export const MAX_SEGMENT_BYTES = 16 * 1024 * 1024;

export const APP_DESC_OFFSET = IMAGE_HEADER_SIZE + SEGMENT_HEADER_SIZE;
export const APP_DESC_SIZE = 256;
export const APP_DESC_MAGIC = 0xabcd5432; // ESP_APP_DESC_MAGIC_WORD

/** Byte offsets in esp_image_header_t. */
export const HEADER = {
  magic: 0,
  segmentCount: 1,
  spiMode: 2,
  /** spi_speed in the low nibble, spi_size in the high nibble. */
  spiSpeedSize: 3,
  entryAddr: 4,
  chipId: 12,
  minChipRevFull: 15,
  maxChipRevFull: 17,
  hashAppended: 23,
} as const;

/** Byte offsets in esp_app_desc_t: char arrays are NUL-terminated unless full. */
export const APP_DESC_FIELDS = {
  version: [16, 32],
  projectName: [48, 32],
  compileTime: [80, 16],
  compileDate: [96, 16],
  idfVersion: [112, 32],
} as const;
export const APP_DESC_ELF_SHA256 = [144, 32] as const;
export const APP_DESC_SECURE_VERSION = 4;

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

/** esp_image_spi_mode_t. */
export const FLASH_MODES = ['qio', 'qout', 'dio', 'dout', 'fast_read', 'slow_read'] as const;
export type FlashMode = (typeof FLASH_MODES)[number];

/** esp_image_flash_size_t: 1 MB << code (ESP_IMAGE_FLASH_SIZE_1MB = 0 … _128MB = 7). */
export const MAX_FLASH_SIZE_CODE = 7;
export const flashSizeBytesOf = (code: number): number | undefined =>
  code <= MAX_FLASH_SIZE_CODE ? 1024 * 1024 * 2 ** code : undefined;

/** "ESP32-S3", "esp32s3" and "esp32_s3" are one chip (devices report `chip_model_name` in several spellings). */
export const normaliseChipName = (chip: string): string => chip.toLowerCase().replace(/[-_\s]/g, '');
