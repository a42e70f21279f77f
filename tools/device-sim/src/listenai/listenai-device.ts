import WebSocket from 'ws';
import {
  decodeMcpRequest,
  encodeMcpReply,
  linkRequestTarget,
  LISTENAI_LINK_PATH,
  type LinkParam,
} from '@fleet/protocol';
import { FaultSettings, happens, NO_FAULTS, type FaultKnobs } from '../device/faults';
import { BoundedLog } from '../util/bounded-log';
import { SILENT_LOGGER, type SimLogger } from '../util/logger';
import { TypedEmitter } from '../util/typed-emitter';
import { ListenAiMcpServer, type ListenAiServerInfo } from './listenai-mcp-server';
import { ARCS_MINI_TOOLS, type ListenAiState, type ListenAiTool } from './listenai-tools';

export type ListenAiFaults = Pick<
  FaultKnobs,
  'dropReplies' | 'replyDelayMs' | 'lie' | 'brokenJson' | 'flapEveryMs' | 'rewriteReply'
>;

export interface ListenAiDeviceOptions {
  readonly mac: string;
  /** The token the platform issued when the device was registered. */
  readonly token: string;
  /** Where the link is (`ws://host:port`, the path added when missing); tried in turn on every reconnect. */
  readonly linkUrls: readonly string[];
  readonly tools?: readonly ListenAiTool[];
  /** Tools per tools/list page (default 3: the default four tools take two pages). */
  readonly pageSize?: number;
  readonly serverInfo?: ListenAiServerInfo;
  /** The `param` of the link request (default {"mcp":true}). */
  readonly param?: LinkParam;
  /** How the token is presented (default the Authorization header). */
  readonly tokenIn?: 'header' | 'query';
  readonly faults?: Partial<ListenAiFaults>;
  readonly fleetFaults?: { current: FaultKnobs };
  /** Before reconnecting after a lost link (default 1000 ms, with ±20 % jitter). */
  readonly reconnectDelayMs?: number;
  /** Messages kept in `observed` (default 200; 0 keeps none, for fleets). */
  readonly recordLimit?: number;
  readonly logger?: SimLogger;
}

export interface ListenAiClose {
  code: number;
  reason: string;
}

export type ListenAiEvents = {
  linked: [count: number];
  closed: [close: ListenAiClose];
  replied: [method: string];
};

// Refusals (RFC 6455 application codes 44xx) and a takeover: a device that retried would only be refused again
// or take its link back from its twin, so it stops, as a ListenAI device gives up on a rejected credential.
const FINAL_CLOSE = new Set([4400, 4401, 4403, 4409]);

export const ARCS_MINI_INFO: ListenAiServerInfo = {
  name: 'arcs-mini',
  version: '1.0.0',
  instructions: '设备端MCP服务: 屏幕、音量和相机',
};

/**
 * A simulated ListenAI device (seed 002): it dials the platform's link with its token and `param {"mcp":true}`,
 * answers MCP in the ListenAI envelope, reconnects when the link drops, and carries the simulator's fault knobs.
 */
export class ListenAiDevice extends TypedEmitter<ListenAiEvents> {
  readonly state: ListenAiState = { volume: 50, screen: { content: '', brightness: 80 }, photos: 0 };
  readonly observed: { received: BoundedLog<string>; sent: BoundedLog<string> };
  linkCount = 0;
  lastClose: ListenAiClose | undefined;
  /** Set when the platform refused the link or another link took over: the device stopped retrying. */
  refused: ListenAiClose | undefined;
  private socket: WebSocket | undefined;
  private readonly server: ListenAiMcpServer;
  private readonly faults: FaultSettings;
  private running = false;
  private urlIndex = 0;
  private timers = new Set<NodeJS.Timeout>();

  constructor(readonly options: ListenAiDeviceOptions) {
    super();
    this.server = new ListenAiMcpServer(
      options.tools ?? ARCS_MINI_TOOLS,
      options.pageSize ?? 3,
      options.serverInfo ?? ARCS_MINI_INFO,
    );
    this.faults = new FaultSettings(options.fleetFaults ?? { current: NO_FAULTS }, options.faults);
    const limit = options.recordLimit ?? 200;
    this.observed = { received: new BoundedLog(limit), sent: new BoundedLog(limit) };
  }

  get mac(): string {
    return this.options.mac;
  }

  get linked(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.refused = undefined;
    this.dial();
  }

  /** Closes the link as the device would when powered down; no reconnect. */
  async stop(): Promise<void> {
    this.running = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket.close(1000, 'device off');
    });
  }

  /** Drops the link without a close frame (Wi-Fi lost); the device reconnects. */
  flap(): void {
    this.socket?.terminate();
  }

  setFaults(knobs: Partial<ListenAiFaults>): void {
    this.faults.set(knobs);
  }

  /** Sends a frame as it is (a test's malformed input). */
  sendRaw(text: string | Buffer): void {
    this.socket?.send(text);
  }

  waitUntilLinked(timeoutMs = 10_000): Promise<void> {
    if (this.linked) return Promise.resolve();
    return this.next('linked', { timeoutMs }).then(() => undefined);
  }

  private dial(): void {
    const base = this.options.linkUrls[this.urlIndex % this.options.linkUrls.length]!;
    this.urlIndex++;
    const byQuery = this.options.tokenIn === 'query';
    const url = new URL(base);
    const path = url.pathname === '/' ? LISTENAI_LINK_PATH : url.pathname;
    const target = linkRequestTarget(
      this.options.param ?? { mcp: true },
      byQuery ? this.options.token : undefined,
    );
    const socket = new WebSocket(`${url.origin}${path}${target.slice(LISTENAI_LINK_PATH.length)}`, {
      headers: byQuery ? {} : { authorization: `Bearer ${this.options.token}` },
      handshakeTimeout: 10_000,
    });
    this.socket = socket;
    socket.on('open', () => {
      this.linkCount++;
      this.server.reset();
      this.scheduleFlap(socket);
      this.emit('linked', this.linkCount);
    });
    socket.on('message', (data: Buffer) => this.receive(socket, data.toString('utf8')));
    socket.on('error', (err) =>
      (this.options.logger ?? SILENT_LOGGER).debug({ err, mac: this.mac }, 'link error'),
    );
    socket.on('close', (code, reason) => this.closed(socket, { code, reason: reason.toString() }));
  }

  private receive(socket: WebSocket, text: string): void {
    this.observed.received.push(text);
    const decoded = decodeMcpRequest('listenai', text);
    if (!decoded.ok || !('id' in decoded.value.message)) return; // notifications need no answer
    const { link, message } = decoded.value;
    const faults = this.faults.current;
    const reply = this.server.handle(message, this.state, faults.lie);
    if (happens(faults.dropReplies)) return;
    const encoded = encodeMcpReply(link, reply);
    if (!encoded.ok) return;
    const rewritten = faults.rewriteReply ? faults.rewriteReply(encoded.value, reply.method) : encoded.value;
    const text_ = happens(faults.brokenJson)
      ? rewritten.slice(0, Math.floor(rewritten.length / 2))
      : rewritten;
    const send = () => {
      if (socket.readyState !== WebSocket.OPEN) return;
      socket.send(text_);
      this.observed.sent.push(text_);
      this.emit('replied', reply.method);
    };
    if (faults.replyDelayMs > 0) this.later(faults.replyDelayMs, send);
    else send();
  }

  private closed(socket: WebSocket, close: ListenAiClose): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    this.lastClose = close;
    this.emit('closed', close);
    if (!this.running) return;
    if (FINAL_CLOSE.has(close.code)) {
      this.refused = close;
      this.running = false;
      return;
    }
    const delay = this.options.reconnectDelayMs ?? 1_000;
    this.later(delay * (0.8 + Math.random() * 0.4), () => this.running && this.dial());
  }

  private scheduleFlap(socket: WebSocket): void {
    const every = this.faults.current.flapEveryMs;
    if (every <= 0) return;
    this.later(every * (0.5 + Math.random()), () => {
      if (socket === this.socket) socket.terminate();
    });
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }
}
