import { connect } from 'node:net';

/** What a stranger sends to hold a connection without finishing it, per listener. */
export const HALF_SENT = {
  /** An upgrade's request line and one header, never the blank line that ends them. */
  upgrade: 'GET /v1/interaction HTTP/1.1\r\nHost: x\r\n',
  request: 'POST /xiaozhi/ota/ HTTP/1.1\r\nHost: x\r\n',
  /** The first byte of an MQTT CONNECT. */
  mqtt: Buffer.from([0x10]),
} as const;

export interface FloodTarget {
  port: number;
  bytes: string | Buffer;
}

export interface Flood {
  /** Resolves once every connection was accepted or turned away (each has connected, or closed). */
  opened: Promise<void>;
  /** Resolves once the broker has closed every one of them. */
  closed: Promise<void>;
  size: number;
}

/**
 * `count` connections round-robin over the targets and the local addresses (127.0.0.x are all loopback on Linux),
 * each writing its half-sent bytes and then waiting for the broker to cut it.
 */
export function halfSentFlood(count: number, targets: FloodTarget[], localAddresses: string[]): Flood {
  const opened: Promise<void>[] = [];
  const closed: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const target = targets[i % targets.length]!;
    const localAddress = localAddresses[i % localAddresses.length]!;
    const socket = connect({ port: target.port, host: '127.0.0.1', localAddress });
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    opened.push(
      new Promise((resolve) => {
        socket.once('connect', () => {
          socket.write(target.bytes);
          resolve();
        });
        socket.once('close', () => resolve());
      }),
    );
    closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
  }
  return {
    opened: Promise.all(opened).then(() => undefined),
    closed: Promise.all(closed).then(() => undefined),
    size: count,
  };
}

/** 127.0.0.<first> … 127.0.0.<first + count - 1>. */
export function loopbackAddresses(first: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `127.0.0.${first + i}`);
}
