import { z } from 'zod';
import { ROLES } from '@fleet/auth';

export const createApiKeyBody = z.strictObject({
  operatorId: z.uuid(),
  name: z.string().trim().min(1).max(200),
  role: z.enum(ROLES),
});

export const listApiKeysQuery = z.strictObject({ operatorId: z.uuid().optional() });

export const apiKeyView = z.object({
  id: z.uuid(),
  operatorId: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  role: z.enum(ROLES),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

export const createdApiKeyView = apiKeyView.extend({
  key: z.string().describe('the key itself: shown this once, never stored'),
});
