import type { Aedes, AedesPublishPacket } from 'aedes';
import type { RawData, WebSocket } from 'ws';
import { deviceP2pTopic, LINK_CLOSE, readListenAiDown, type LinkCloseKind } from '@fleet/protocol';
import type { Logger } from '@fleet/telemetry';
import type { BrokerMetrics } from '../broker-metrics';
import { internals } from '../mqtt/aedes-internals';
import type { PublishRateLimits } from '../mqtt/rate-limits';
import type { CloseReason, PresenceTracker } from '../presence/presence-tracker';
import type { LinkIdentity } from './link-authenticator';
import { presenceReasonOf } from './link-close-reasons';
import type { LinkMetrics } from './link-metrics';
import { wrapLinkUplink } from './link-uplink';

export interface LinkSessionDeps {
  aedes: Aedes;
  presence: PresenceTracker;
  rateLimits: PublishRateLimits;
  metrics: BrokerMetrics;
  linkMetrics: LinkMetrics;
  logger: Logger;
}

/**
 * One device's open link: its frames wrapped onto the fleet uplink topics (DESIGN §2), the platform's messages
 * for it (published on devices/p2p/<mac_> as for any device) written to the socket, presence from the link's
 * life (online once the downlink subscription exists, offline with the reason it ended), a ping each period.
 */
export class LinkSession {
  readonly openedAt = new Date();
  private online = false;
  private answeredPing = true;
  private ended: CloseReason | undefined;
  private finished = false;
  private readonly endWaiters: (() => void)[] = [];
  private readonly topic: string;
  private readonly downlink = (packet: AedesPublishPacket, done: () => void) => {
    this.deliver(packet.payload);
    done();
  };

  constructor(
    readonly identity: LinkIdentity,
    private readonly socket: WebSocket,
    private readonly deps: LinkSessionDeps,
    private readonly onEnded: (session: LinkSession) => void,
  ) {
    this.topic = deviceP2pTopic(identity.mac);
  }

  get mac(): string {
    return this.identity.mac;
  }

  /** Wires the socket and subscribes the device's downlink topic; online once that subscription exists. */
  start(): void {
    const { presence, metrics } = this.deps;
    metrics.connects.inc({ kind: 'listenai' });
    presence.connected(this.identity);
    this.socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    this.socket.on('pong', () => (this.answeredPing = true));
    this.socket.on('error', (err: Error & { code?: string }) => this.failed(err));
    this.socket.on('close', (code) => this.closed(code));
    internals(this.deps.aedes).mq.on(this.topic, this.downlink, () => {
      if (this.ended) return;
      this.online = true;
      presence.online(this.identity);
    });
  }

  /** Ends the link with a close frame that names why (DESIGN §3: a refused or ended link says so). */
  close(kind: LinkCloseKind): void {
    this.ended ??= presenceReasonOf(kind);
    const { code, reason } = LINK_CLOSE[kind];
    this.socket.close(code, reason);
    // A device that never answers the close handshake is cut after a grace period.
    setTimeout(() => this.socket.terminate(), 2_000).unref();
  }

  /** Resolves once the link's close has been handled (presence written). */
  whenEnded(): Promise<void> {
    return this.finished ? Promise.resolve() : new Promise((resolve) => this.endWaiters.push(resolve));
  }

  /** Called once per ping period: a link that did not answer the last ping is dead (DESIGN §3 presence). */
  keepalive(): void {
    if (this.ended) return;
    if (!this.answeredPing) {
      this.ended = 'keepalive_timeout';
      this.socket.terminate();
      return;
    }
    this.answeredPing = false;
    this.socket.ping();
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.ended) return;
    this.answeredPing = true; // any frame shows the link is alive
    const { rateLimits, metrics, aedes } = this.deps;
    if (!rateLimits.allow(this.identity.connectionId)) {
      metrics.accessRefusals.inc({ action: 'publish', reason: 'rate_limit' });
      this.close('rate_limit');
      return;
    }
    const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    const wrapped = wrapLinkUplink(this.identity.mac, this.identity.connectionId, raw, isBinary);
    if (isBinary) metrics.malformedInput.inc({ kind: 'listenai_binary_frame' });
    metrics.uplinks.inc({ kind: wrapped.kind });
    aedes.publish(
      { cmd: 'publish', topic: wrapped.topic, payload: wrapped.payload, qos: 0, retain: false, dup: false },
      (err) => {
        if (err) this.deps.logger.warn({ err, mac: this.mac }, 'link uplink not published');
      },
    );
  }

  private deliver(payload: Buffer | string): void {
    if (this.ended) return; // a link being taken over: the newer one delivers
    const down = readListenAiDown(payload);
    if (!down.ok) {
      // The voice worker's xiaozhi messages, or anything else, have no meaning on an MCP-only ListenAI link.
      this.deps.linkMetrics.downlinks.inc({ outcome: 'not_listenai_mcp' });
      return;
    }
    this.deps.linkMetrics.downlinks.inc({ outcome: 'sent' });
    this.socket.send(Buffer.isBuffer(payload) ? payload.toString('utf8') : payload);
  }

  private failed(err: Error & { code?: string }): void {
    // ws reports a frame over maxPayload as an error and closes with 1009 itself.
    const oversized = err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';
    this.deps.metrics.malformedInput.inc({ kind: oversized ? 'listenai_oversized' : 'listenai_protocol' });
    this.ended ??= 'protocol_error';
    this.deps.logger.info({ mac: this.mac, err: err.message }, 'link error');
  }

  private closed(code: number): void {
    // 1006: the connection dropped without a close frame.
    const reason = this.ended ?? (code === 1006 ? 'connection_lost' : 'client_disconnect');
    this.ended = reason;
    internals(this.deps.aedes).mq.removeListener(this.topic, this.downlink);
    this.deps.rateLimits.forget(this.identity.connectionId);
    this.deps.presence.offline(this.identity, reason, this.online);
    this.onEnded(this);
    this.finished = true;
    for (const resolve of this.endWaiters.splice(0)) resolve();
  }
}
