import { z } from 'zod';
import { ROLES } from '@fleet/auth';

export const createApiKeyBody = z.strictObject({
  operatorId: z.uuid(),
  name: z.string().trim().min(1).max(200),
  role: z.enum(ROLES),
  groups: z
    .array(z.uuid())
    .min(1)
    .max(100)
    .optional()
    .describe(
      'device group ids (GET /groups): the key lists, reads and calls only their devices, everywhere (REST, ' +
        '/mcp, events; campaigns only over them); other devices answer 404 as unknown ones. Omitted: the whole fleet',
    ),
});

export const listApiKeysQuery = z.strictObject({ operatorId: z.uuid().optional() });

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export {
  apiKeySchema as apiKeyView,
  createdApiKeySchema as createdApiKeyView,
  type ApiKey as ApiKeyView,
} from '@fleet/api-contract';
