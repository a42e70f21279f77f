import { z } from 'zod';
import { normaliseMac } from '@fleet/protocol';

/** DESIGN §3: ListenAI devices are registered by an operator; xiaozhi devices register themselves at check-in. */
export const registerDeviceBody = z.strictObject({
  id: z
    .string()
    .transform((text, ctx) => {
      const mac = normaliseMac(text);
      if (mac.ok) return mac.value;
      ctx.addIssue({ code: 'custom', message: 'a MAC address (a0:85:e3:f4:49:34)' });
      return z.NEVER;
    })
    .describe("the device's MAC address: its id on the platform"),
  dialect: z.literal('listenai').describe('only ListenAI devices are registered by hand'),
  model: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('the device model (its board): what per-model readbacks are keyed by'),
});
export type RegisterDeviceBody = z.infer<typeof registerDeviceBody>;

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export {
  issuedLinkTokenSchema as issuedTokenView,
  linkTokenSchema as linkTokenView,
  revokedLinkTokensSchema as revokedTokensView,
  type IssuedLinkToken as IssuedTokenView,
  type LinkToken as LinkTokenView,
} from '@fleet/api-contract';
