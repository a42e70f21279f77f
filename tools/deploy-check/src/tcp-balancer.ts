import { createServer, Socket, type Server } from 'node:net';

// A small stand-in for the TCP load balancer in front of the brokers (haproxy in deploy/compose.yaml, the broker-devices
// Service on Kubernetes): round robin over the backends, and a backend that refuses the connection is skipped for
// the next one (haproxy's `option redispatch`), so a dead replica's devices reconnect through the live ones.

export interface Backend {
  name: string;
  port: number;
  host?: string;
}

export interface TcpBalancer {
  port: number;
  setBackends(backends: Backend[]): void;
  /** Connections each backend accepted so far. */
  accepted(): Record<string, number>;
  close(): Promise<void>;
}

export async function startTcpBalancer(backends: Backend[] = []): Promise<TcpBalancer> {
  let pool = [...backends];
  let next = 0;
  const accepted: Record<string, number> = {};
  const sockets = new Set<Socket>();

  const connectUpstream = (client: Socket, attemptsLeft: number) => {
    if (client.destroyed) return;
    if (pool.length === 0 || attemptsLeft === 0) return client.destroy();
    const backend = pool[next++ % pool.length]!;
    const upstream = new Socket();
    sockets.add(upstream);
    upstream.once('connect', () => {
      accepted[backend.name] = (accepted[backend.name] ?? 0) + 1;
      const drop = () => {
        client.destroy();
        upstream.destroy();
      };
      upstream.on('error', drop).on('close', drop);
      client.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.once('error', () => {
      if (upstream.readyState === 'opening' || !upstream.remoteAddress) {
        sockets.delete(upstream);
        connectUpstream(client, attemptsLeft - 1);
      }
    });
    upstream.once('close', () => sockets.delete(upstream));
    upstream.connect(backend.port, backend.host ?? '127.0.0.1');
  };

  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    connectUpstream(client, pool.length);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the balancer has no port');

  return {
    port: address.port,
    setBackends(list) {
      pool = [...list];
    },
    accepted: () => ({ ...accepted }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
