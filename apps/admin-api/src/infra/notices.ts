import { Inject, Injectable } from '@nestjs/common';
import type { PlatformEvent, WebhookEvent } from '@fleet/domain';
import { PlatformEventBus, WebhookNotifier } from '@fleet/platform-client';
import type { Logger } from '@fleet/telemetry';
import { ControlChannel, type ControlMessage } from './control-channel';
import { LOGGER } from './tokens';

/**
 * What the API tells others after its own write has committed: live views (fleet:events), webhooks, and the
 * broker (fleet:control). The row is the record and is already written, so a failure here is logged, never
 * turned into an error for a request whose work is done.
 */
@Injectable()
export class Notices {
  constructor(
    private readonly events: PlatformEventBus,
    private readonly webhooks: WebhookNotifier,
    private readonly control: ControlChannel,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Best effort by design (DESIGN: a view that misses a notice re-reads the row). */
  event(event: PlatformEvent): void {
    this.events.publish(event);
  }

  async webhook(event: WebhookEvent, payload: Record<string, unknown>): Promise<void> {
    try {
      await this.webhooks.notify(event, payload);
    } catch (err) {
      this.logger.error({ err, event, payload }, 'webhook notice could not be recorded');
    }
  }

  /** The broker also refuses credentials by the device's status at its next connect. */
  async broker(message: ControlMessage): Promise<void> {
    try {
      await this.control.publish(message);
    } catch (err) {
      this.logger.warn(
        { err, message },
        'control message not published; the broker applies it at the next connect',
      );
    }
  }
}
