import { Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { z } from 'zod';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { uuidParams } from '../http/common-schemas';
import { limitParam } from '../http/cursor';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams, ValidQuery } from '../http/validation';
import { createdWebhookView, createWebhookBody, updateWebhookBody, webhookView } from './webhooks.schemas';
import { WebhooksService } from './webhooks.service';

type Id = z.infer<typeof uuidParams>;
const deliveriesQuery = z.strictObject({ limit: limitParam(50, 500) });

@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Roles('admin')
  @Doc({ summary: 'Webhooks (never their secrets)', response: { status: 200, schema: webhookView.array() } })
  list() {
    return this.webhooks.list();
  }

  // Not idempotent on purpose: replaying the answer would mean storing the secret a second time.
  @Post()
  @HttpCode(201)
  @Roles('admin')
  @Audited('webhook.create', 'webhook')
  @Doc({
    summary:
      'Notify a URL of events (approval.waiting, campaign.paused, campaign.aborted, campaign.gate_failed, fleet.offline_surge, upgrade.regressed)',
    description:
      'Each POST carries `X-Fleet-Signature: sha256=<HMAC-SHA256 of the raw body with the secret>`.',
    response: { status: 201, schema: createdWebhookView },
  })
  create(
    @CurrentActor() actor: Actor,
    @ValidBody(createWebhookBody) body: z.infer<typeof createWebhookBody>,
  ) {
    return this.webhooks.create(actor, body);
  }

  @Patch(':id')
  @Roles('admin')
  @Audited('webhook.update', 'webhook')
  @Doc({ summary: 'Change the URL or events, or disable / enable' })
  update(
    @ValidParams(uuidParams) p: Id,
    @ValidBody(updateWebhookBody) body: z.infer<typeof updateWebhookBody>,
  ) {
    return this.webhooks.update(p.id, body);
  }

  @Delete(':id')
  @Roles('admin')
  @Audited('webhook.delete', 'webhook')
  @Doc({ summary: 'Delete a webhook with its delivery history' })
  delete(@ValidParams(uuidParams) p: Id) {
    return this.webhooks.delete(p.id);
  }

  @Get(':id/deliveries')
  @Roles('admin')
  @Doc({ summary: 'Recent deliveries: state, attempts, last error' })
  deliveries(
    @ValidParams(uuidParams) p: Id,
    @ValidQuery(deliveriesQuery) q: z.infer<typeof deliveriesQuery>,
  ) {
    return this.webhooks.deliveries(p.id, q.limit);
  }
}
