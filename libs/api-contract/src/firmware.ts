import { z } from 'zod';
import { instant } from './common';

/** GET /firmware and one image: the registry's view (ESP app descriptor, sha256, boards it suits). */
export const firmwareSchema = z.strictObject({
  id: z.uuid(),
  version: z.string(),
  projectName: z.string(),
  chip: z.string(),
  sha256: z.string(),
  size: z.int(),
  boards: z.array(z.string()),
  uploadedBy: z.uuid(),
  createdAt: instant,
  downloadUrl: z
    .string()
    .describe('where devices fetch it (the broker serves it with a real Content-Length)'),
});
export type Firmware = z.infer<typeof firmwareSchema>;

/** POST /firmware. */
export const firmwareUploadedSchema = firmwareSchema.extend({
  created: z.boolean().describe('false: these bytes were already registered'),
  idfVersion: z.string().optional(),
  flash: z
    .strictObject({
      mode: z.string().nullable().describe('qio, qout, dio, dout, fast_read, slow_read'),
      freqCode: z.int().describe('esp_image_spi_freq_t, whose meaning depends on the chip'),
      sizeBytes: z.int().nullable(),
    })
    .optional()
    .describe("the image header's flash settings"),
  hashAppended: z.boolean().optional().describe('the image carries the SHA-256 the bootloader checks'),
  warnings: z.array(z.string()),
});
export type FirmwareUploaded = z.infer<typeof firmwareUploadedSchema>;
