import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { Duplex } from 'node:stream';
import { createServer as createTlsServer } from 'node:tls';
import type { Aedes } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import type { HealthCheck } from '@fleet/telemetry';
import { guardPacketSizes } from './packet-size-guard';

export interface ListenerOptions {
  host: string;
  port: number;
  maxPacketBytes: number;
  onOversized: (reason: 'oversized' | 'malformed_length') => void;
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
  return listen(
    createServer((socket) => handle(socket)),
    options,
  );
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
  const server = createTlsServer(
    { cert: readFileSync(options.certFile), key: readFileSync(options.keyFile) },
    (socket) => handle(socket),
  );
  return listen(server, options);
}

/** MQTT over WebSocket (`ws://host:port/mqtt`, any path), for browser tools and gateways. */
export async function listenMqttWebSocket(aedes: Aedes, options: ListenerOptions): Promise<Server> {
  const handle = guarded(aedes, options);
  const http = createHttpServer((_req, res) => res.writeHead(426).end('MQTT over WebSocket only\n'));
  const wss = new WebSocketServer({ server: http, maxPayload: options.maxPacketBytes + 8 });
  wss.on('connection', (socket, request) => handle(createWebSocketStream(socket), request));
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
