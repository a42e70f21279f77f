import type { Redis } from '@fleet/queues';

/** Where the broker listens for what must take effect on live connections (it drops a revoked device). */
export const CONTROL_CHANNEL = 'fleet:control';

export type ControlMessage =
  { type: 'device.revoked'; deviceId: string } | { type: 'device.decommissioned'; deviceId: string };

/** Publishes control messages; the database row is the record, this only makes it take effect at once. */
export class ControlChannel {
  constructor(private readonly redis: Redis) {}

  async publish(message: ControlMessage): Promise<void> {
    await this.redis.publish(CONTROL_CHANNEL, JSON.stringify(message));
  }
}
