import type { Aedes, AedesPublishPacket, Client } from 'aedes';
import type { StoredWill } from './will-rights';

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
  persistence: {
    destroy?: () => Promise<void> | void;
    /** Every stored will whose broker id is not a key of `brokers` (aedes-persistence's documented API). */
    streamWill(brokers?: Record<string, unknown>): AsyncIterable<StoredWill>;
    delWill(client: { id: string; brokerId: string }): Promise<unknown>;
  };
}

export function internals(aedes: Aedes): AedesInternals {
  return aedes as unknown as AedesInternals;
}

/**
 * The will of a client whose CONNECT is being authenticated, before aedes stores it: its connect handler keeps
 * it in `_will` until the authentication succeeds (lib/handlers/connect.js), then persists that object.
 */
export function pendingWillOf(client: Client): Record<string, unknown> | undefined {
  const will = (client as Client & { _will?: unknown })._will;
  return will && typeof will === 'object' ? (will as Record<string, unknown>) : undefined;
}

/** A publish aedes asks about because `client` closed without a DISCONNECT: its will (lib/client.js `close`). */
export function isClosingWill(client: Client, packet: object): boolean {
  return (client as Client & { will?: unknown }).will === packet;
}
