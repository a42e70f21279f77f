import { z } from 'zod';

const board = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\w.-]+$/, 'a board type such as bread-compact-wifi');

/** The image is the raw request body (application/octet-stream). */
export const imageBody = z.custom<Buffer>(
  (v) => Buffer.isBuffer(v) && v.length > 0,
  'send the .bin as the body with Content-Type: application/octet-stream',
);

/** What the image is for travels in the query. */
export const uploadQuery = z.strictObject({
  boards: z
    .string()
    .min(1)
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(board).min(1).max(100))
    .describe('comma-separated board types the image is built for (`board.type`), e.g. bread-compact-wifi'),
});

export const firmwareView = z.object({
  id: z.uuid(),
  version: z.string(),
  projectName: z.string(),
  chip: z.string(),
  sha256: z.string(),
  size: z.int(),
  boards: z.array(z.string()),
  uploadedBy: z.uuid(),
  createdAt: z.iso.datetime(),
  downloadUrl: z
    .string()
    .describe('where devices fetch it (the broker serves it with a real Content-Length)'),
});
export type FirmwareView = z.infer<typeof firmwareView>;

export const uploadedView = firmwareView.extend({
  created: z.boolean().describe('false: these bytes were already registered'),
  idfVersion: z.string().optional(),
  flash: z
    .object({
      mode: z.string().nullable().describe('qio, qout, dio, dout, fast_read, slow_read'),
      freqCode: z.int().describe('esp_image_spi_freq_t, whose meaning depends on the chip'),
      sizeBytes: z.int().nullable(),
    })
    .optional()
    .describe("the image header's flash settings"),
  hashAppended: z.boolean().optional().describe('the image carries the SHA-256 the bootloader checks'),
  warnings: z.array(z.string()),
});
