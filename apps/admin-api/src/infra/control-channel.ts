import { publishControl, type ControlMessage, type Redis } from '@fleet/queues';

export { CONTROL_CHANNEL, type ControlMessage } from '@fleet/queues';

/** Publishes control messages; the database row is the record, this only makes it take effect at once. */
export class ControlChannel {
  constructor(private readonly redis: Redis) {}

  async publish(message: ControlMessage): Promise<void> {
    await publishControl(this.redis, message);
  }
}
