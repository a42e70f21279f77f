import type { Aedes, AedesPublishPacket, Client } from 'aedes';

/**
 * Parts of aedes that its type declarations leave out but that are public in its JavaScript and docs
 * (`aedes.clients`, the emitter `aedes.mq`, `aedes.persistence`). Kept in one place so an upgrade that
 * changes them breaks here.
 */
export interface AedesInternals {
  clients: Record<string, Client | undefined>;
  mq: {
    on(
      topic: string,
      listener: (packet: AedesPublishPacket, done: () => void) => void,
      subscribed?: () => void,
    ): void;
    removeListener(
      topic: string,
      listener: (packet: AedesPublishPacket, done: () => void) => void,
      removed?: () => void,
    ): void;
    /** mqemitter-redis' publishing connection (absent with the in-memory emitter). */
    pubConn?: { ping(): Promise<unknown> };
  };
  persistence: { destroy?: () => Promise<void> | void };
}

export function internals(aedes: Aedes): AedesInternals {
  return aedes as unknown as AedesInternals;
}
