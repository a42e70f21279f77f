import { z } from 'zod';
import { WEBHOOK_EVENTS } from '@fleet/domain';

const events = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1)
  .transform((e) => [...new Set(e)]);
const url = z.url({ protocol: /^https?$/ }).max(2000);

export const createWebhookBody = z.strictObject({
  url,
  events,
  /** Omit to have one generated; either way it is shown in this answer only. */
  secret: z.string().min(16).max(200).optional(),
});

export const updateWebhookBody = z
  .strictObject({ url: url.optional(), events: events.optional(), disabled: z.boolean().optional() })
  .refine((b) => Object.keys(b).length > 0, 'give at least one field to change');

export const webhookView = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.string()),
  disabled: z.boolean(),
  createdBy: z.uuid(),
  createdAt: z.iso.datetime(),
});
export type WebhookView = z.infer<typeof webhookView>;

export const createdWebhookView = webhookView.extend({
  secret: z.string().describe('HMAC-SHA256 key of the X-Fleet-Signature header; shown this once'),
});
