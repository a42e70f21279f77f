import { z } from 'zod';
import type { Redis } from './redis';

/**
 * Redis pub/sub channel for what must take effect on live connections at once (DESIGN §3: a revoked device is
 * dropped). The database row is the record; a lost message only delays the effect until the device's next
 * CONNECT, which the broker refuses by the row.
 */
export const CONTROL_CHANNEL = 'fleet:control';

export const controlMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('device.revoked'), deviceId: z.string().min(1) }),
  z.object({ type: z.literal('device.decommissioned'), deviceId: z.string().min(1) }),
  // DESIGN §3: one live connection per device. A replica that accepted a device's CONNECT tells the others,
  // which close their older connections of it (the later `connectedAt`, then the larger id, stays).
  z.object({
    type: z.literal('device.connected'),
    deviceId: z.string().min(1),
    connectionId: z.string().min(1),
    brokerId: z.string().min(1),
    connectedAt: z.int().min(0),
  }),
  // A ListenAI device's link token was revoked (DESIGN §3): the link it opened closes now.
  z.object({
    type: z.literal('device.link_token_revoked'),
    deviceId: z.string().min(1),
    tokenId: z.string().min(1),
  }),
]);
export type ControlMessage = z.infer<typeof controlMessageSchema>;

export async function publishControl(redis: Redis, message: ControlMessage): Promise<void> {
  await redis.publish(CONTROL_CHANNEL, JSON.stringify(controlMessageSchema.parse(message)));
}

/** The message, or why it is not one (a publisher of another version, a hand-typed PUBLISH). */
export function parseControlMessage(
  text: string,
): { ok: true; message: ControlMessage } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  const parsed = controlMessageSchema.safeParse(json);
  return parsed.success
    ? { ok: true, message: parsed.data }
    : { ok: false, error: parsed.error.issues.map((i) => i.message).join('; ') };
}
