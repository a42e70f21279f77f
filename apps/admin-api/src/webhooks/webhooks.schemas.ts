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

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export {
  createdWebhookSchema as createdWebhookView,
  webhookSchema as webhookView,
  type Webhook as WebhookView,
} from '@fleet/api-contract';
