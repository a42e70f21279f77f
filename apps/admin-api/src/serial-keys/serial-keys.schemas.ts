import { z } from 'zod';
import { cursorKey, cursorOf, limitParam } from '../http/cursor';

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

/** Serial keys by serial number. */
export const serialKeyCursor = cursorOf(cursorKey.serialNumber);

export const serialKeyListQuery = z.strictObject({
  limit: limitParam(100, 1000),
  cursor: serialKeyCursor.param.optional(),
});

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export {
  serialKeyListSchema as serialKeyListView,
  serialKeySchema as serialKeyView,
  serialKeysImportedSchema as importedView,
} from '@fleet/api-contract';
