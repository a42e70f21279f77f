import { buildAppImage } from '@fleet/device-sim';

/** esp_chip_id_t of the ESP32-S3 (esp_app_format.h), the chip the simulated bread-compact-wifi reports. */
const ESP32S3 = 0x0009;

/**
 * A small firmware image in the real ESP-IDF layout (the simulator's builder: three segments, the descriptor at
 * 32, a real checksum and appended SHA-256), for the chip the registry checks against what the devices report.
 * Real images are 2–4 MB; the benchmark measures the platform, not the bytes, and says so.
 */
export function benchFirmwareImage(version: string, bytes: number): Buffer {
  return buildAppImage({ version }, bytes, { chipId: ESP32S3 });
}
