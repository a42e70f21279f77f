import { Injectable } from '@nestjs/common';
import { PrismaService } from '../infra/prisma.service';

export interface WebhookRecord {
  id: string;
  url: string;
  events: string[];
  disabled: boolean;
  createdBy: string;
  createdAt: Date;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  event: string;
  payload: unknown;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

const PUBLIC = {
  id: true,
  url: true,
  events: true,
  disabled: true,
  createdBy: true,
  createdAt: true,
} as const;

@Injectable()
export class WebhooksRepository {
  constructor(private readonly prisma: PrismaService) {}

  list(): Promise<WebhookRecord[]> {
    return this.prisma.client.webhook.findMany({ select: PUBLIC, orderBy: { createdAt: 'asc' } });
  }

  create(w: { url: string; events: string[]; secret: string; createdBy: string }): Promise<WebhookRecord> {
    return this.prisma.client.webhook.create({ data: w, select: PUBLIC });
  }

  async update(
    id: string,
    change: { url?: string; events?: string[]; disabled?: boolean },
  ): Promise<WebhookRecord | null> {
    const { count } = await this.prisma.client.webhook.updateMany({ where: { id }, data: change });
    return count === 0 ? null : this.prisma.client.webhook.findUnique({ where: { id }, select: PUBLIC });
  }

  /** A webhook goes with its delivery history. */
  delete(id: string): Promise<boolean> {
    return this.prisma.client.$transaction(async (tx) => {
      await tx.webhookDelivery.deleteMany({ where: { webhookId: id } });
      return (await tx.webhook.deleteMany({ where: { id } })).count === 1;
    });
  }

  deliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]> {
    return this.prisma.client.webhookDelivery.findMany({
      where: { webhookId },
      orderBy: { createdAt: 'desc' },
      take: limit,
    });
  }

  async exists(id: string): Promise<boolean> {
    return (await this.prisma.client.webhook.count({ where: { id } })) === 1;
  }
}
