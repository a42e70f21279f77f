import { connect, type Socket } from 'node:net';

/** What a stranger sends to hold a connection, by listener. */
export const HALF_SENT = {
  link: 'GET /v1/interaction HTTP/1.1\r\nHost: x\r\n',
  http: 'POST /xiaozhi/ota/ HTTP/1.1\r\nHost: x\r\n',
  mqtt: Buffer.from([0x10]),
  ws: 'GET /mqtt HTTP/1.1\r\nHost: x\r\n',
} as const;
export type FloodTarget = keyof typeof HALF_SENT;

export interface FloodPort {
  port: number;
  bytes: string | Buffer;
}

/**
 * Connections that never finish their request, kept at a target count: each one the broker closes is opened again,
 * at most `rate` a second, round-robin over the ports (each with its own half-sent bytes) and over the local
 * addresses 127.0.0.2 … (all loopback on Linux).
 */
export class HalfSentFlood {
  private readonly sockets = new Set<Socket>();
  private timer: NodeJS.Timeout | undefined;
  private next = 0;
  opened = 0;
  /** Connected and not closed yet. */
  open = 0;
  peakOpen = 0;
  lastClosedAt = 0;

  constructor(
    private readonly ports: FloodPort[],
    private readonly addresses: number,
  ) {}

  start(target: number, rate: number): void {
    const perTick = Math.max(1, Math.round(rate / 100));
    this.timer = setInterval(() => {
      for (let i = 0; i < perTick && this.sockets.size < target; i++) this.openOne();
    }, 10);
  }

  /** No more new connections; those open stay until the broker closes them. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  destroy(): void {
    this.stop();
    for (const socket of this.sockets) socket.destroy();
  }

  private openOne(): void {
    const n = this.next++;
    const target = this.ports[n % this.ports.length]!;
    const socket = connect({
      port: target.port,
      host: '127.0.0.1',
      localAddress: `127.0.0.${2 + (n % this.addresses)}`,
    });
    this.sockets.add(socket);
    this.opened++;
    let connected = false;
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.once('connect', () => {
      socket.write(target.bytes);
      connected = true;
      this.peakOpen = Math.max(this.peakOpen, ++this.open);
    });
    socket.once('close', () => {
      if (connected) this.open--;
      this.sockets.delete(socket);
      this.lastClosedAt = Date.now();
    });
  }
}
