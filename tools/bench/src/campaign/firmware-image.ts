import { buildAppImage } from '@fleet/device-sim';

/** esp_chip_id_t of the ESP32-S3 (esp_app_format.h), the chip the simulated bread-compact-wifi reports. */
const ESP32S3 = 0x0009;

/**
 * A small firmware image in the real ESP-IDF layout (the simulator's builder: magic 0xE9, esp_app_desc_t at 32),
 * with the chip id the registry checks against what the devices report. Real images are 2–4 MB; the benchmark
 * measures the platform, not the bytes, and says so.
 */
export function benchFirmwareImage(version: string, bytes: number): Buffer {
  const image = buildAppImage({ version }, bytes);
  image[1] = 3; // segment count, as a real image has
  image.writeUInt16LE(ESP32S3, 12);
  return image;
}
