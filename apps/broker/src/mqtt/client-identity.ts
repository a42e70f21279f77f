import type { Client } from 'aedes';
import type { Mac } from '@fleet/protocol';

/** Who is on the other end of an MQTT connection, decided once at CONNECT. */
export type ClientIdentity =
  | {
      readonly kind: 'device';
      readonly mac: Mac;
      /** This connection's id: presence and evidence are keyed by it, never by the client id. */
      readonly connectionId: string;
      /** sha256 of the Client-Id in its MQTT client id (DESIGN §3: the Client-Id itself is never kept). */
      readonly clientIdHash: string;
      readonly keepalive: number;
      /** When it authenticated (ms): of two connections of one device, the later one stays. */
      readonly connectedAt: number;
      readonly remoteAddress?: string;
      /** The uint32 that goes into this connection's UDP nonce (ssrc), xiaozhi §1.4. */
      readonly ssrc: number;
    }
  | { readonly kind: 'service'; readonly name: string };

// A WeakMap rather than a property on aedes' Client: nothing of ours leaks into aedes' objects or outlives them.
const identities = new WeakMap<Client, ClientIdentity>();

export function setIdentity(client: Client, identity: ClientIdentity): void {
  identities.set(client, identity);
}

export function identityOf(client: Client | null | undefined): ClientIdentity | undefined {
  return client ? identities.get(client) : undefined;
}
