import { readFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { LINK_CLOSE, LISTENAI_LINK_PATH } from '@fleet/protocol';
import type { LinkAuthenticator, LinkIdentity } from './link-authenticator';
import type { LinkMetrics } from './link-metrics';

export interface LinkServerOptions {
  host: string;
  port: number;
  maxFrameBytes: number;
  /** wss when both are given (the same certificate as MQTT over TLS). */
  tls?: { certFile: string; keyFile: string };
}

/**
 * The ListenAI link's listener (DESIGN §3): WebSocket upgrades at /v1/interaction, each decided by the
 * authenticator before a frame is read. A refused link is still upgraded, then closed with a code and a reason
 * that names the problem, so the device (and whoever reads its log) learns why.
 */
export async function listenForLinks(
  options: LinkServerOptions,
  authenticator: LinkAuthenticator,
  metrics: LinkMetrics,
  onLink: (socket: WebSocket, identity: LinkIdentity) => void,
): Promise<Server> {
  const answer = (_req: IncomingMessage, res: ServerResponse) =>
    res
      .writeHead(426, { 'content-type': 'text/plain' })
      .end(`ListenAI link: WebSocket at ${LISTENAI_LINK_PATH}\n`);
  const server = options.tls
    ? createHttpsServer(
        { cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) },
        answer,
      )
    : createHttpServer(answer);
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const remote = request.socket.remoteAddress?.replace(/^::ffff:/, '');
    void authenticator
      .authenticate({ url: request.url ?? '', authorization: request.headers.authorization }, remote)
      .then((result) => {
        if (socket.destroyed) return;
        wss.handleUpgrade(request, socket, head, (ws) => {
          if (result.ok) return onLink(ws, result.identity);
          metrics.refusals.inc({ reason: result.refusal });
          const { code, reason } = LINK_CLOSE[result.refusal];
          ws.close(code, reason);
          setTimeout(() => ws.terminate(), 2_000).unref();
        });
      })
      .catch(() => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
