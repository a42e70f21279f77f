import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Job, Worker } from 'bullmq';
import { closeQueueWorker, createQueueWorker, createRedis, JOB_DEFAULTS, type Redis } from '@fleet/queues';
import type { Logger } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { LOGGER } from '../infra/tokens';
import { DeliveriesRepository } from './deliveries.repository';
import { postWebhook } from './webhook-post';
import { SIGNATURE_HEADER, signBody } from './webhook-signature';
import { TargetRefusedError, WebhookTargetGuard } from './webhook-target-guard';

/**
 * The `webhook.deliver` worker: POSTs the delivery's payload, signed with the webhook's secret, and lets
 * BullMQ retry with exponential backoff (attempts and delay set once in libs/queues JOB_DEFAULTS). The
 * delivery row records every attempt, so a console shows what happened even after the job is gone.
 */
@Injectable()
export class WebhookDeliveryProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private worker?: Worker;
  private connection?: Redis;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly targets: WebhookTargetGuard,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.WEBHOOK_WORKER) return;
    this.connection = createRedis(this.config.REDIS_URL);
    this.connection.on('error', () => undefined); // the API's main connection reports outages
    this.worker = createQueueWorker(
      'webhooks',
      { 'webhook.deliver': (data, job) => this.deliver(data.deliveryId, job) },
      {
        connection: this.connection,
        prefix: this.config.QUEUE_PREFIX,
        concurrency: this.config.WEBHOOK_CONCURRENCY,
      },
    );
    this.worker.on('error', (err) => this.logger.warn({ err }, 'webhook worker error'));
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.worker && this.connection) await closeQueueWorker(this.worker, this.connection);
    this.connection?.disconnect();
  }

  async deliver(deliveryId: string, job: Pick<Job, 'attemptsMade' | 'opts'>): Promise<void> {
    const delivery = await this.deliveries.find(deliveryId);
    if (!delivery || delivery.state !== 'pending') return; // deleted, or a duplicate wake of a settled one
    const attempt = job.attemptsMade + 1;
    if (delivery.webhook.disabled) {
      await this.deliveries.attemptFailed(deliveryId, attempt - 1, 'webhook disabled', null);
      return;
    }
    const error = await this.post(
      delivery.webhook.url,
      delivery.webhook.secret,
      delivery.event,
      deliveryId,
      delivery.payload,
    );
    if (error === undefined) {
      await this.deliveries.delivered(deliveryId, attempt);
      return;
    }
    if (error instanceof TargetRefusedError) {
      // No retry: the target is refused by policy, not unreachable by chance.
      await this.deliveries.attemptFailed(deliveryId, attempt, error.message, null);
      this.logger.warn(
        { deliveryId, address: error.address, reason: error.reason },
        'webhook target refused',
      );
      return;
    }
    const maxAttempts = job.opts.attempts ?? JOB_DEFAULTS.webhooks.attempts ?? 1;
    const next = attempt < maxAttempts ? new Date(Date.now() + backoffMs(attempt)) : null;
    await this.deliveries.attemptFailed(deliveryId, attempt, error, next);
    throw new Error(`webhook delivery ${deliveryId} attempt ${attempt}: ${error}`);
  }

  /** One attempt; the error (text, or the target refusal), or undefined when the receiver answered 2xx. */
  private async post(
    url: string,
    secret: string,
    event: string,
    deliveryId: string,
    payload: unknown,
  ): Promise<string | TargetRefusedError | undefined> {
    const target = new URL(url);
    const literal = this.targets.literalRefusal(target);
    if (literal) return literal;
    const body = JSON.stringify(payload);
    try {
      const status = await postWebhook(
        target,
        {
          'content-type': 'application/json',
          'user-agent': 'voice-fleet-webhooks/1',
          'x-fleet-event': event,
          'x-fleet-delivery': deliveryId,
          [SIGNATURE_HEADER]: signBody(secret, body),
        },
        body,
        { timeoutMs: this.config.WEBHOOK_TIMEOUT_MS, lookup: this.targets.lookup },
      );
      return status >= 200 && status < 300 ? undefined : `HTTP ${status}`;
    } catch (err) {
      return err instanceof TargetRefusedError ? err : (err as Error).message;
    }
  }
}

/** When BullMQ's exponential backoff will try again (for the row; BullMQ itself keeps the real timer). */
function backoffMs(attempt: number): number {
  const backoff = JOB_DEFAULTS.webhooks.backoff;
  const delay = typeof backoff === 'object' && backoff.delay !== undefined ? backoff.delay : 1_000;
  return delay * 2 ** (attempt - 1);
}
