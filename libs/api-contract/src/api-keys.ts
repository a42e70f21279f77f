import { z } from 'zod';
import { instant } from './common';
import { ROLES } from './vocabulary';

/** An API key as listed: its prefix names it; the secret is never shown again. */
export const apiKeySchema = z.strictObject({
  id: z.uuid(),
  operatorId: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  role: z.enum(ROLES),
  createdAt: instant,
  lastUsedAt: instant.nullable(),
  revokedAt: instant.nullable(),
  groups: z
    .array(z.strictObject({ id: z.uuid(), name: z.string() }))
    .nullable()
    .describe(
      'the device groups the key is bounded to: it lists, reads and calls only their devices (empty once they ' +
        'are all deleted: it reaches none); null: the whole fleet',
    ),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createdApiKeySchema = apiKeySchema.extend({
  key: z.string().describe('the key itself: shown this once, never stored'),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
