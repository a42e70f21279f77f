import { Injectable } from '@nestjs/common';
import { PrismaService } from '../infra/prisma.service';

export interface PendingDelivery {
  id: string;
  event: string;
  payload: unknown;
  state: 'pending' | 'delivered' | 'failed';
  webhook: { url: string; secret: string; disabled: boolean };
}

/** The delivery worker's rows: what to send, and how each attempt went. */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(id: string): Promise<PendingDelivery | null> {
    return this.prisma.client.webhookDelivery.findUnique({
      where: { id },
      select: {
        id: true,
        event: true,
        payload: true,
        state: true,
        webhook: { select: { url: true, secret: true, disabled: true } },
      },
    });
  }

  async delivered(id: string, attempts: number): Promise<void> {
    await this.prisma.client.webhookDelivery.update({
      where: { id },
      data: { state: 'delivered', attempts, deliveredAt: new Date(), lastError: null, nextAttemptAt: null },
    });
  }

  async attemptFailed(
    id: string,
    attempts: number,
    error: string,
    nextAttemptAt: Date | null,
  ): Promise<void> {
    await this.prisma.client.webhookDelivery.update({
      where: { id },
      data: {
        state: nextAttemptAt ? 'pending' : 'failed',
        attempts,
        lastError: error.slice(0, 2000),
        nextAttemptAt,
      },
    });
  }
}
