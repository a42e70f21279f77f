import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { Actor } from '../http/actor';
import { notFound } from '../http/api-error';
import { WebhookTargetGuard } from './webhook-target-guard';
import { WebhooksRepository, type DeliveryRecord, type WebhookRecord } from './webhooks.repository';
import type {
  createdWebhookView,
  createWebhookBody,
  updateWebhookBody,
  WebhookView,
} from './webhooks.schemas';

@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly targets: WebhookTargetGuard,
  ) {}

  async list(): Promise<WebhookView[]> {
    return (await this.webhooks.list()).map(view);
  }

  async create(
    actor: Actor,
    body: z.infer<typeof createWebhookBody>,
  ): Promise<z.infer<typeof createdWebhookView>> {
    await this.targets.checkUrl(body.url, 'create');
    const secret = body.secret ?? randomBytes(32).toString('base64url');
    const created = await this.webhooks.create({
      url: body.url,
      events: body.events,
      secret,
      createdBy: actor.operatorId,
    });
    return { ...view(created), secret };
  }

  async update(id: string, body: z.infer<typeof updateWebhookBody>): Promise<WebhookView> {
    if (body.url !== undefined) await this.targets.checkUrl(body.url, 'update');
    const updated = await this.webhooks.update(id, body);
    if (!updated) throw notFound('webhook', id);
    return view(updated);
  }

  async delete(id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.webhooks.delete(id))) throw notFound('webhook', id);
    return { id, deleted: true };
  }

  async deliveries(id: string, limit: number): Promise<DeliveryRecord[]> {
    if (!(await this.webhooks.exists(id))) throw notFound('webhook', id);
    return this.webhooks.deliveries(id, limit);
  }
}

function view(w: WebhookRecord): WebhookView {
  return { ...w, createdAt: w.createdAt.toISOString() };
}
