import type { EventEmitter } from 'node:events';
import { Aedes, type AedesOptions } from 'aedes';
import persistenceRedis from 'aedes-persistence-redis';
import mqemitter from 'mqemitter';
import MQEmitterRedisModule from 'mqemitter-redis';
import { internals } from './aedes-internals';

// mqemitter-redis' declarations describe an interface, not the constructor its CommonJS module exports.
const MQEmitterRedis = MQEmitterRedisModule as unknown as new (options: {
  connectionString: string;
}) => object;

export interface AedesSetup {
  brokerId: string;
  /** When set, sessions and routing are shared through Redis with every other replica (DESIGN §7). */
  clusterRedisUrl?: string;
  /**
   * Errors aedes and the Redis emitter raise as 'error' events (a persistence lookup failing while Redis is
   * down, a lost emitter connection). Without a listener Node would throw them and take every device down.
   */
  onError: (err: Error, source: 'aedes' | 'emitter') => void;
}

interface EmitterInternals {
  state?: { on(event: 'error', listener: (err: Error) => void): void };
  subConn?: { quit(): Promise<string> };
  pubConn?: { quit(): Promise<string> };
}

/** An aedes instance, alone or as one replica of a broker that spans several processes. */
export async function createAedes({ brokerId, clusterRedisUrl, onError }: AedesSetup): Promise<Aedes> {
  const options: AedesOptions = {
    id: brokerId,
    // xiaozhi client ids (`GID_<board>@@@<mac_>@@@<uuid>`) run far past MQTT 3.1's 23 characters.
    maxClientsIdLength: 256,
    connectTimeout: 10_000,
    // A device that stops reading must not stall deliveries to everyone else.
    drainTimeout: 30_000,
    concurrency: 1_000,
    // aedes would make its own emitter with that concurrency as a limit; mqemitter queues what arrives past the
    // limit and drains the queue recursively, which overflows the stack once a slow subscriber has held a
    // thousand deliveries (mcollina/mqemitter#204; seen at 10,000 devices). Unlimited, like the Redis emitter.
    mq: mqemitter({ concurrency: 0, matchEmptyLevels: true }),
  };
  if (clusterRedisUrl) {
    const url = new URL(clusterRedisUrl);
    const emitter = new MQEmitterRedis({ connectionString: clusterRedisUrl }) as EmitterInternals;
    emitter.state?.on('error', (err) => onError(err, 'emitter'));
    // mqemitter-redis closes with a bare `quit()`: when the server drops the link before answering, that promise
    // rejects with nobody listening, an unhandled rejection at every other shutdown.
    for (const conn of [emitter.subConn, emitter.pubConn]) {
      if (!conn) continue;
      const quit = conn.quit.bind(conn);
      conn.quit = () => quit().catch(() => 'OK');
    }
    options.mq = emitter;
    options.persistence = persistenceRedis({
      host: url.hostname,
      port: Number(url.port || 6379),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      db: Number(url.pathname.slice(1) || 0),
    });
  }
  const aedes = new Aedes(options);
  // aedes' declarations omit its own 'error' event.
  (aedes as unknown as EventEmitter).on('error', (err: Error) => onError(err, 'aedes'));
  await aedes.listen();
  return aedes;
}

/**
 * Closes aedes and, in a cluster, its Redis links. Clients are closed first and the emitter's connection drained:
 * a closing client still publishes its `$SYS/…/disconnect/clients` notice, and aedes.close() would otherwise shut
 * the emitter's Redis connection under it.
 */
export async function closeAedes(aedes: Aedes): Promise<void> {
  const { clients, mq, persistence } = internals(aedes);
  await Promise.all(
    Object.values(clients).map(
      (client) => new Promise<void>((resolve) => (client ? client.close(() => resolve()) : resolve())),
    ),
  );
  // Redis answers commands in order: once this ping is answered, every earlier publish has been sent.
  await mq.pubConn?.ping().catch(() => undefined);
  await new Promise<void>((resolve) => aedes.close(() => resolve()));
  await persistence.destroy?.();
}
