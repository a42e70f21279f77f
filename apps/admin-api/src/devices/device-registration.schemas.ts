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

export const linkTokenView = z.object({
  id: z.uuid(),
  prefix: z.string().describe('names the token; the secret is never shown again'),
  createdAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type LinkTokenView = z.infer<typeof linkTokenView>;

export const issuedTokenView = z.object({
  deviceId: z.string(),
  token: linkTokenView.extend({
    secret: z.string().describe('the whole token, in this answer only: the device presents it on its link'),
  }),
  linkUrl: z.string().describe('where the device opens its link (with param {"mcp":true})'),
  revokedTokens: z.array(z.uuid()).describe('tokens of the device this one replaced, revoked'),
});
export type IssuedTokenView = z.infer<typeof issuedTokenView>;

export const revokedTokensView = z.object({ deviceId: z.string(), revokedTokens: z.array(z.uuid()) });
