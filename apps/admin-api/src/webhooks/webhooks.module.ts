import { Module } from '@nestjs/common';
import { DeliveriesRepository } from './deliveries.repository';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookTargetGuard } from './webhook-target-guard';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

@Module({
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhooksRepository,
    DeliveriesRepository,
    WebhookDeliveryProcessor,
    WebhookTargetGuard,
  ],
})
export class WebhooksModule {}
