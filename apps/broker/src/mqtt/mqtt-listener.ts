import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import type { Aedes } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import type { HealthCheck } from '@fleet/telemetry';
import { edgeHttpOptions, type EdgeGuard } from '../edge/edge-guard';
import { guardPacketSizes } from './packet-size-guard';

export interface ListenerOptions {
  host: string;
  port: number;
  maxPacketBytes: number;
  onOversized: (reason: 'oversized' | 'malformed_length') => void;
  /** Every connection is the edge guard's from its accept until its CONNECT is accepted (DeviceEdge settles it). */
  guard: EdgeGuard;
  /** From TCP accept to an accepted CONNECT (the TLS handshake and the WebSocket upgrade included). */
  connectMs: number;
}

type Handle = (stream: Duplex, request?: IncomingMessage) => void;

function guarded(aedes: Aedes, { maxPacketBytes, onOversized }: ListenerOptions): Handle {
  return (stream, request) => {
    guardPacketSizes(stream, maxPacketBytes, onOversized);
    aedes.handle(stream, request);
  };
}

/** Plain MQTT over TCP (a stock device uses plain TCP on every port but 8883). */
export function listenMqttTcp(aedes: Aedes, options: ListenerOptions): Promise<Server> {
  const handle = guarded(aedes, options);
  const server = createServer((socket) => {
    if (options.guard.accept('mqtt', socket, options.connectMs)) handle(socket);
  });
  options.guard.watchServer(server, 'mqtt');
  return listen(server, options);
}

/**
 * MQTT over TLS. Only worth enabling with a certificate a stock device accepts: it checks the server against
 * the ESP CA bundle whenever the port is 8883 (xiaozhi §1.2).
 */
export function listenMqttTls(
  aedes: Aedes,
  options: ListenerOptions & { certFile: string; keyFile: string },
): Promise<Server> {
  const handle = guarded(aedes, options);
  const { guard, connectMs } = options;
  const server = createTlsServer(
    {
      cert: readFileSync(options.certFile),
      key: readFileSync(options.keyFile),
      handshakeTimeout: connectMs,
    },
    (socket: TLSSocket) => {
      guard.adoptTls('mqtt_tls', socket);
      handle(socket);
    },
  );
  // The TCP socket under the TLS one is accepted (and budgeted) before its handshake starts.
  server.on('connection', (socket: Socket) => void guard.accept('mqtt_tls', socket, connectMs));
  server.on('tlsClientError', (err: Error, socket: TLSSocket) => {
    guard.countError('mqtt_tls', err);
    socket.destroy();
  });
  guard.watchServer(server, 'mqtt_tls');
  return listen(server, options);
}

/** MQTT over WebSocket (`ws://host:port/mqtt`, any path), for browser tools and gateways. */
export async function listenMqttWebSocket(aedes: Aedes, options: ListenerOptions): Promise<Server> {
  const handle = guarded(aedes, options);
  const { guard, connectMs } = options;
  const http = createHttpServer(edgeHttpOptions(connectMs), (_req, res) =>
    res.writeHead(426).end('MQTT over WebSocket only\n'),
  );
  guard.watchHttp(http, 'mqtt_ws', connectMs, { answerClientErrors: true });
  const wss = new WebSocketServer({ server: http, maxPayload: options.maxPacketBytes + 8 });
  // ws re-emits the HTTP server's errors on itself; the guard counts them on the server already.
  wss.on('error', () => undefined);
  wss.on('connection', (socket, request) => {
    // Before the stream exists: a frame ws refuses is an 'error' on the WebSocket (the stream listens only once).
    guard.watchErrors('mqtt_ws', socket);
    const stream = createWebSocketStream(socket);
    stream.on('error', () => undefined); // the same error as the WebSocket's, counted there; aedes listens too
    guard.alias(stream, request.socket);
    handle(stream, request);
  });
  return listen(http, options);
}

function listen<S extends Server>(server: S, { host, port }: ListenerOptions): Promise<S> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

export function boundPort(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

export function listenerHealthCheck(name: string, server: Server): HealthCheck {
  return {
    name,
    check: () =>
      server.listening
        ? Promise.resolve()
        : Promise.reject(new Error(`${name} listener is not accepting connections`)),
  };
}

/**
 * Stops accepting connections without waiting for the open ones: aedes closes those itself when it stops (a
 * server's close() would otherwise wait for every device to hang up).
 */
export function stopAccepting(server: Server): Promise<void> {
  server.close();
  return Promise.resolve();
}
