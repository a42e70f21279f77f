import { z } from 'zod';
import { instant, page } from './common';

/** POST /serial-keys: eFuse serial → key pairs imported (never echoed back). */
export const serialKeysImportedSchema = z.strictObject({ imported: z.int(), replaced: z.int() });

export const serialKeySchema = z.strictObject({
  serialNumber: z.string(),
  importedAt: instant,
  importedBy: z.uuid(),
  deviceId: z.string().nullable(),
});
export type SerialKey = z.infer<typeof serialKeySchema>;
export const serialKeyListSchema = page(serialKeySchema);
