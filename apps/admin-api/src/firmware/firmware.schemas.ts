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

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export {
  firmwareSchema as firmwareView,
  firmwareUploadedSchema as uploadedView,
  type Firmware as FirmwareView,
} from '@fleet/api-contract';
