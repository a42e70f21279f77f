import { connect, type Socket } from 'node:net';
import { generate, parser as createParser, type Packet, type Parser } from 'mqtt-packet';
import type { Cancel, Clock } from '../clock/clock';
import { backoffDelay, type BackoffPolicy } from './backoff';

export interface LeanMqttOptions {
  readonly host: string;
  readonly port: number;
  readonly clientId: string;
  readonly username?: string;
  readonly password?: string;
  /** Seconds, sent in CONNECT; a PINGREQ goes out when nothing was sent for this long. 0 disables. */
  readonly keepaliveSec: number;
  /** Give up on a connection without CONNACK after this long. */
  readonly connectTimeoutMs: number;
  /** Automatic reconnection after any loss, or none. */
  readonly reconnect: BackoffPolicy | false;
  readonly clock: Clock;
}

/** What the owner of the client hears about; one object per client, no per-event closures. */
export interface LeanMqttHandlers {
  onConnected(): void;
  /** Every socket close after start, connected or not (esp-mqtt posts DISCONNECTED for failed attempts too). */
  onDisconnected(wasConnected: boolean, reason: string): void;
  onMessage(topic: string, payload: Buffer): void;
  onConnackRefused?(returnCode: number): void;
}

const MQTT_PROTOCOL_LEVEL_311 = 4;

/**
 * A minimal MQTT 3.1.1 client for thousands of simulated devices: one socket and one mqtt-packet parser each,
 * clean session, QoS 0 out, every PUBLISH in (QoS 1/2 acknowledged), PINGREQ at keepalive, reconnect with
 * backoff. It subscribes to nothing, as the firmware does (xiaozhi §1.2). All timers go through the shared clock.
 */
export class LeanMqttClient {
  private socket: Socket | undefined;
  private parser: Parser | undefined;
  private isConnected = false;
  private stopped = true;
  private failures = 0;
  private lastSentAt = 0;
  private pingOutstanding = false;
  private timer: Cancel | undefined;
  private closeReason = '';
  private silent = false;

  constructor(
    private readonly options: LeanMqttOptions,
    private readonly handlers: LeanMqttHandlers,
  ) {}

  get connected(): boolean {
    return this.isConnected;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.silent = false;
    this.open();
  }

  /** QoS 0, retain 0. False when there is no connection: the message is simply not sent. */
  publish(topic: string, payload: string | Uint8Array): boolean {
    if (!this.isConnected) return false;
    const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload);
    return this.send({ cmd: 'publish', topic, payload: body, qos: 0, retain: false, dup: false });
  }

  /** Writes arbitrary bytes on the socket (for tests of a broker's handling of bad input). */
  writeRaw(bytes: Uint8Array): boolean {
    if (!this.socket || this.socket.destroyed) return false;
    this.socket.write(bytes);
    this.lastSentAt = this.options.clock.now();
    return true;
  }

  /** DISCONNECT, then close; no reconnection afterwards. Resolves once the socket is closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    const socket = this.socket;
    if (!socket || socket.destroyed) return;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    if (this.isConnected) this.send({ cmd: 'disconnect' });
    socket.end();
    // A peer that never closes its side must not hold the device up.
    this.timer = this.options.clock.after(this.options.connectTimeoutMs, () => socket.destroy());
    await closed;
  }

  /** Drops the connection without DISCONNECT, as a network loss would; auto-reconnect still applies. */
  drop(reason = 'dropped'): void {
    this.closeReason = reason;
    this.socket?.destroy();
  }

  /** Closes without DISCONNECT and never reconnects (power loss); the handlers hear nothing more. */
  destroy(): void {
    this.stopped = true;
    this.silent = true;
    this.clearTimer();
    this.socket?.destroy();
  }

  private open(): void {
    const { host, port } = this.options;
    const socket = connect({ host, port });
    const parser = createParser({ protocolVersion: MQTT_PROTOCOL_LEVEL_311 });
    this.socket = socket;
    this.parser = parser;
    this.closeReason = '';
    socket.setNoDelay(true);
    socket.on('connect', () => this.sendConnect());
    socket.on('data', (data: Buffer) => parser.parse(data));
    socket.on('error', (err) => {
      this.closeReason ||= err.message;
    });
    socket.on('close', () => this.onClose(socket));
    parser.on('packet', (packet: Packet) => this.onPacket(packet));
    parser.on('error', (err: Error) => this.drop(`protocol error: ${err.message}`));
    this.setTimer(this.options.connectTimeoutMs, () => this.drop('connect timeout'));
  }

  private sendConnect(): void {
    const { clientId, username, password, keepaliveSec } = this.options;
    this.send({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: MQTT_PROTOCOL_LEVEL_311,
      clean: true,
      clientId,
      keepalive: keepaliveSec,
      ...(username !== undefined ? { username } : {}),
      ...(password !== undefined ? { password: Buffer.from(password, 'utf8') } : {}),
    });
  }

  private onPacket(packet: Packet): void {
    switch (packet.cmd) {
      case 'connack':
        return this.onConnack(packet.returnCode ?? 0);
      case 'publish':
        if (packet.qos === 1) this.send({ cmd: 'puback', messageId: packet.messageId });
        if (packet.qos === 2) this.send({ cmd: 'pubrec', messageId: packet.messageId });
        this.handlers.onMessage(packet.topic, toBuffer(packet.payload));
        return;
      case 'pubrel':
        this.send({ cmd: 'pubcomp', messageId: packet.messageId });
        return;
      case 'pingresp':
        this.pingOutstanding = false;
        return;
      // Nothing else is expected by a client that never subscribes or publishes above QoS 0.
      case 'auth':
      case 'connect':
      case 'disconnect':
      case 'pingreq':
      case 'puback':
      case 'pubcomp':
      case 'pubrec':
      case 'suback':
      case 'subscribe':
      case 'unsuback':
      case 'unsubscribe':
        return;
    }
  }

  private onConnack(returnCode: number): void {
    this.clearTimer();
    if (returnCode !== 0) {
      this.handlers.onConnackRefused?.(returnCode);
      this.drop(`connack refused (${returnCode})`);
      return;
    }
    this.isConnected = true;
    this.failures = 0;
    this.pingOutstanding = false;
    this.scheduleKeepalive(this.keepaliveMs());
    this.handlers.onConnected();
  }

  private onClose(socket: Socket): void {
    if (socket !== this.socket) return;
    const wasConnected = this.isConnected;
    this.isConnected = false;
    this.socket = undefined;
    this.parser?.removeAllListeners();
    this.parser = undefined;
    this.clearTimer();
    if (!wasConnected) this.failures++;
    if (this.silent) return;
    this.handlers.onDisconnected(wasConnected, this.closeReason || 'closed by peer');
    const policy = this.options.reconnect;
    if (this.stopped || policy === false) return;
    this.setTimer(backoffDelay(policy, this.failures), () => this.open());
  }

  private keepaliveMs(): number {
    return this.options.keepaliveSec * 1000;
  }

  // [MQTT-3.1.2-23]: the client must send something within every keepalive period. A PINGREQ still unanswered a
  // full period later means the connection is dead.
  private scheduleKeepalive(ms: number): void {
    if (this.keepaliveMs() <= 0) return;
    this.setTimer(ms, () => {
      if (this.pingOutstanding) return this.drop('no PINGRESP');
      const idle = this.options.clock.now() - this.lastSentAt;
      if (idle < this.keepaliveMs()) return this.scheduleKeepalive(this.keepaliveMs() - idle);
      this.pingOutstanding = true;
      this.send({ cmd: 'pingreq' });
      this.scheduleKeepalive(this.keepaliveMs());
    });
  }

  private send(packet: Packet): boolean {
    const socket = this.socket;
    if (!socket || socket.destroyed) return false;
    let bytes: Buffer;
    try {
      bytes = generate(packet);
    } catch (err) {
      // mqtt-packet refuses what MQTT cannot carry (a keepalive above 65535, a topic with a NUL …).
      this.drop(`cannot encode ${packet.cmd}: ${(err as Error).message}`);
      return false;
    }
    socket.write(bytes);
    this.lastSentAt = this.options.clock.now();
    return true;
  }

  private setTimer(ms: number, fn: () => void): void {
    this.clearTimer();
    this.timer = this.options.clock.after(ms, fn);
  }

  private clearTimer(): void {
    this.timer?.();
    this.timer = undefined;
  }
}

function toBuffer(payload: string | Buffer): Buffer {
  return typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
}
