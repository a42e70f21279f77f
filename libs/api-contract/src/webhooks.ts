import { z } from 'zod';
import { instant } from './common';

/** A webhook as listed: never its secret. */
export const webhookSchema = z.strictObject({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.string()),
  disabled: z.boolean(),
  createdBy: z.uuid(),
  createdAt: instant,
});
export type Webhook = z.infer<typeof webhookSchema>;

/** POST /webhooks: the secret is in this answer only. */
export const createdWebhookSchema = webhookSchema.extend({
  secret: z.string().describe('HMAC-SHA256 key of the X-Fleet-Signature header; shown this once'),
});

export const webhookDeliverySchema = z.strictObject({
  id: z.uuid(),
  webhookId: z.uuid(),
  event: z.string(),
  payload: z.unknown(),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.int(),
  lastError: z.string().nullable(),
  nextAttemptAt: instant.nullable(),
  createdAt: instant,
  deliveredAt: instant.nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** DELETE /webhooks/:id, DELETE /groups/:id. */
export const deletedSchema = z.strictObject({ id: z.uuid(), deleted: z.literal(true) });
