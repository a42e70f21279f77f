import type { EventEmitter } from 'node:events';
import type { Server as HttpServer, ServerOptions } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import type { Logger } from '@fleet/telemetry';
import { addressKey } from './address-key';
import { ConnectionBudget, type BudgetLimits } from './connection-budget';
import type { EdgeListener, EdgeMetrics } from './edge-metrics';

interface Ticket {
  readonly listener: EdgeListener;
  readonly address: string;
  readonly socket: Socket;
  timer: NodeJS.Timeout | undefined;
  /** Gave way to a newer connection: the budget let go of it then, not at its close. */
  evicted?: true;
}

/** Node's codes (ECONNRESET, HPE_INVALID_METHOD, WS_ERR_INVALID_UTF8, ERR_SSL_…) are a closed set; nothing else is a label. */
const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * The device edge's guard. Every device-facing socket gets an 'error' listener the moment it is accepted (a
 * socket without one turns a stranger's reset or bad frame into an exception that ends the process), and a slot
 * in the connection budget or an immediate cut; it must finish its handshake (HTTP headers, WebSocket upgrade,
 * MQTT CONNECT) within its listener's time. What goes wrong is counted by listener and code, never thrown.
 */
export class EdgeGuard {
  private readonly tickets = new WeakMap<object, Ticket>();
  private readonly budget: ConnectionBudget<Ticket>;

  constructor(
    limits: BudgetLimits,
    private readonly metrics: EdgeMetrics,
    private readonly logger: Logger,
  ) {
    this.budget = new ConnectionBudget(limits);
  }

  /**
   * A connection just accepted: error listener, budget slot, handshake timer. False when it was refused (and cut);
   * the caller then hands it to nobody.
   */
  accept(listener: EdgeListener, socket: Socket, handshakeMs: number): boolean {
    this.watchErrors(listener, socket);
    const ticket: Ticket = { listener, address: addressKey(socket.remoteAddress), socket, timer: undefined };
    const admission = this.budget.admit(ticket);
    if (!admission.ok) {
      this.metrics.edgeRefusals.inc({ listener, reason: admission.reason });
      reset(socket);
      return false;
    }
    if (admission.evicted) this.evict(admission.evicted);
    ticket.timer = setTimeout(() => {
      ticket.timer = undefined;
      this.metrics.edgeRefusals.inc({ listener, reason: 'handshake_timeout' });
      socket.destroy();
    }, handshakeMs);
    ticket.timer.unref();
    this.metrics.edgePending.inc({ listener });
    this.metrics.edgeOpen.inc({ listener });
    socket.once('close', () => {
      this.stopTimer(ticket);
      if (ticket.evicted) return;
      if (this.budget.isPending(ticket)) this.metrics.edgePending.dec({ listener });
      this.budget.release(ticket);
      this.metrics.edgeOpen.dec({ listener });
    });
    this.tickets.set(socket, ticket);
    return true;
  }

  /**
   * An HTTP server whose connections are device-facing: each accepted under the budget, TLS failures counted, and
   * accept errors (EMFILE) counted instead of thrown. Client errors (a request Node cannot parse, headers that
   * did not arrive in time) go to `clientErrorHandler`: Fastify takes it as an option, a plain server with
   * `answerClientErrors: true`.
   */
  watchHttp(
    server: HttpServer,
    listener: EdgeListener,
    handshakeMs: number,
    { answerClientErrors }: { answerClientErrors: boolean },
  ): void {
    server.on('connection', (socket: Socket) => void this.accept(listener, socket, handshakeMs));
    server.on('secureConnection', (socket: TLSSocket) => this.adoptTls(listener, socket));
    server.on('tlsClientError', (err: Error, socket: TLSSocket) => {
      this.countError(listener, err);
      socket.destroy();
    });
    if (answerClientErrors) server.on('clientError', this.clientErrorHandler(listener));
    this.watchServer(server, listener);
  }

  /** Accept errors on a listening server (EMFILE at the open-file limit) are counted: without a listener they throw. */
  watchServer(server: Server, listener: EdgeListener): void {
    server.on('error', (err) => this.countError(listener, err));
  }

  /** A TLS socket wrapping an accepted one: its own errors counted, and it stands for the accepted socket. */
  adoptTls(listener: EdgeListener, socket: TLSSocket): void {
    this.watchErrors(listener, socket);
    const parent = tlsParentOf(socket);
    const ticket = parent && this.tickets.get(parent);
    if (ticket) this.tickets.set(socket, ticket);
  }

  /** Another object standing for an accepted socket (MQTT's stream over a WebSocket). */
  alias(stream: Duplex, socket: object): void {
    const ticket = this.tickets.get(socket);
    if (ticket) this.tickets.set(stream, ticket);
  }

  /** The request's headers arrived: the handshake timer stops; the connection stays in the budget (device HTTP). */
  handshakeDone(socket: object): void {
    const ticket = this.tickets.get(socket);
    if (ticket) this.stopTimer(ticket);
  }

  /** The peer authenticated (a CONNACK, an accepted link): no longer pending, open until it closes. */
  authenticated(socket: object): void {
    const ticket = this.tickets.get(socket);
    if (!ticket) return;
    this.stopTimer(ticket);
    if (!this.budget.isPending(ticket)) return;
    this.budget.settle(ticket);
    this.metrics.edgePending.dec({ listener: ticket.listener });
  }

  /** The longest-pending connection gives way to a new one (the budget already let go of it). */
  private evict(ticket: Ticket): void {
    this.stopTimer(ticket);
    ticket.evicted = true;
    this.metrics.edgePending.dec({ listener: ticket.listener });
    this.metrics.edgeOpen.dec({ listener: ticket.listener });
    this.metrics.edgeRefusals.inc({ listener: ticket.listener, reason: 'evicted' });
    reset(ticket.socket);
  }

  private stopTimer(ticket: Ticket): void {
    if (ticket.timer) clearTimeout(ticket.timer);
    ticket.timer = undefined;
  }

  watchErrors(listener: EdgeListener, emitter: EventEmitter): void {
    emitter.on('error', (err: Error) => this.countError(listener, err));
  }

  countError(listener: EdgeListener, err: Error & { code?: unknown }): void {
    const code = typeof err.code === 'string' && ERROR_CODE.test(err.code) ? err.code : 'other';
    this.metrics.socketErrors.inc({ listener, code });
    this.logger.debug({ listener, code, err: err.message }, 'device socket error');
  }

  /** As Node answers a client error by default (400, 408, 431, then close), counted. */
  clientErrorHandler(listener: EdgeListener): (err: Error & { code?: string }, socket: Duplex) => void {
    return (err, socket) => {
      this.countError(listener, err);
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const status =
        err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : err.code === 'HPE_HEADER_OVERFLOW'
            ? '431 Request Header Fields Too Large'
            : '400 Bad Request';
      if (socket.writable)
        socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
    };
  }
}

/**
 * Node's own request and header limits for a device-facing HTTP server: headers within the handshake time (checked
 * every fraction of it, not every 30 s), the whole request within three times that, idle keep-alive as short.
 */
export function edgeHttpOptions(headersMs: number): ServerOptions {
  return {
    headersTimeout: headersMs,
    requestTimeout: headersMs * 3,
    keepAliveTimeout: headersMs,
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersMs / 2))),
  };
}

// Node's tls.Server wraps each accepted socket in a TLSSocket whose `_parent` is that socket (lib/_tls_wrap.js);
// the public API has no other link between the two.
function tlsParentOf(socket: TLSSocket): object | undefined {
  return (socket as TLSSocket & { _parent?: object })._parent;
}

/** A reset rather than a FIN: a flood's refusals leave no TIME_WAIT behind on this side. */
function reset(socket: Socket): void {
  if (socket.destroyed) return;
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy(); // not a TCP handle
  }
}
