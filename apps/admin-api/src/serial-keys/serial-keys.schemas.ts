import { z } from 'zod';
import { cursorParam, limitParam } from '../http/cursor';

/** The CSV is the raw request body (text/csv). */
export const csvBody = z.custom<Buffer>(
  (v) => Buffer.isBuffer(v) && v.length > 0,
  'send serial_number,key lines as the body with Content-Type: text/csv',
);

export const importQuery = z.strictObject({
  replace: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('replace the key of a serial that already has one (otherwise the import is refused)'),
});

export const importedView = z.object({ imported: z.int(), replaced: z.int() });

export const serialKeyView = z.object({
  serialNumber: z.string(),
  importedAt: z.iso.datetime(),
  importedBy: z.uuid(),
  deviceId: z.string().nullable(),
});

export const serialKeyListQuery = z.strictObject({
  limit: limitParam(100, 1000),
  cursor: cursorParam.optional(),
});
export const serialKeyListView = z.object({
  items: serialKeyView.array(),
  nextCursor: z.string().nullable(),
});
