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
import { edgeHttpOptions, type EdgeGuard } from '../edge/edge-guard';
import type { LinkAuthenticator, LinkIdentity } from './link-authenticator';
import type { LinkMetrics } from './link-metrics';

export interface LinkServerOptions {
  host: string;
  port: number;
  maxFrameBytes: number;
  /** From TCP accept to an accepted link (headers, the token's check, the upgrade). */
  handshakeMs: number;
  /** wss when both are given (the same certificate as MQTT over TLS). */
  tls?: { certFile: string; keyFile: string };
}

/**
 * The ListenAI link's listener (DESIGN §3): WebSocket upgrades at /v1/interaction, each decided by the
 * authenticator before a frame is read. A refused link is still upgraded, then closed with a code and a reason
 * that names the problem, so the device (and whoever reads its log) learns why. Every socket is the edge guard's
 * from its accept: it holds a budget slot until its link is accepted, and its errors are counted, never thrown,
 * whether the link was accepted or refused.
 */
export async function listenForLinks(
  options: LinkServerOptions,
  authenticator: LinkAuthenticator,
  metrics: LinkMetrics,
  guard: EdgeGuard,
  onLink: (socket: WebSocket, identity: LinkIdentity) => void,
): Promise<Server> {
  const answer = (_req: IncomingMessage, res: ServerResponse) =>
    res
      .writeHead(426, { 'content-type': 'text/plain' })
      .end(`ListenAI link: WebSocket at ${LISTENAI_LINK_PATH}\n`);
  const limits = edgeHttpOptions(options.handshakeMs);
  const server = options.tls
    ? createHttpsServer(
        {
          ...limits,
          cert: readFileSync(options.tls.certFile),
          key: readFileSync(options.tls.keyFile),
          handshakeTimeout: options.handshakeMs,
        },
        answer,
      )
    : createHttpServer(limits, answer);
  guard.watchHttp(server, 'link', options.handshakeMs, { answerClientErrors: true });
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const remote = request.socket.remoteAddress?.replace(/^::ffff:/, '');
    void authenticator
      .authenticate({ url: request.url ?? '', authorization: request.headers.authorization }, remote)
      .then((result) => {
        if (socket.destroyed) return;
        wss.handleUpgrade(request, socket, head, (ws) => {
          // Before anything else: a frame ws cannot accept (oversized, unmasked, bad UTF-8, RSV bits) is an
          // 'error' on the WebSocket, refused link or not.
          guard.watchErrors('link', ws);
          if (result.ok) {
            guard.authenticated(socket);
            return onLink(ws, result.identity);
          }
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
