import type { Server } from 'node:http';
import type { Aedes } from 'aedes';
import type { Pool } from '@fleet/db';
import type { Logger, Registry } from '@fleet/telemetry';
import type { BrokerMetrics } from '../broker-metrics';
import type { EdgeGuard } from '../edge/edge-guard';
import { PublishRateLimits } from '../mqtt/rate-limits';
import type { PresenceTracker } from '../presence/presence-tracker';
import { LinkAuthenticator } from './link-authenticator';
import { createLinkMetrics } from './link-metrics';
import { LinkRegistry } from './link-registry';
import { listenForLinks, type LinkServerOptions } from './link-server';
import { LinkSession } from './link-session';
import { LinkTokenRepository } from './link-token.repository';

export interface ListenAiLinkSettings extends LinkServerOptions {
  pingSeconds: number;
  messageRate: number;
}

export interface ListenAiLinkDeps {
  aedes: Aedes;
  pool: Pool;
  presence: PresenceTracker;
  metrics: BrokerMetrics;
  registry: Registry;
  logger: Logger;
  guard: EdgeGuard;
}

export interface ListenAiLink {
  server: Server;
  /** Closes this replica's link of a device the moment it is revoked or decommissioned. */
  disconnectDevice(mac: string, reason: 'revoked' | 'decommissioned'): number;
  /** Closes the links a just-revoked token opened. */
  revokeToken(tokenId: string): number;
  /** Hands the links over (DESIGN §7): each closes with 1001 and its device reconnects, to any replica. */
  stop(): Promise<void>;
}

/** The ListenAI link beside MQTT (DESIGN §3): its listener, one session per linked device, one ping timer. */
export async function startListenAiLink(
  settings: ListenAiLinkSettings,
  deps: ListenAiLinkDeps,
): Promise<ListenAiLink> {
  const linkMetrics = createLinkMetrics(deps.registry);
  const tokens = new LinkTokenRepository(deps.pool);
  const registry = new LinkRegistry(deps.aedes);
  const rateLimits = new PublishRateLimits(settings.messageRate);
  const sessionDeps = { ...deps, rateLimits, linkMetrics };
  const server = await listenForLinks(
    settings,
    new LinkAuthenticator(tokens, settings.pingSeconds),
    linkMetrics,
    deps.guard,
    (socket, identity) => {
      const session = new LinkSession(identity, socket, sessionDeps, (ended) => registry.release(ended));
      registry.adopt(session);
      session.start();
      tokens.touch(identity.tokenId, session.openedAt).catch((err: unknown) => {
        deps.logger.debug({ err }, 'token last use not recorded');
      });
    },
  );
  const pings = setInterval(() => {
    for (const session of registry.all()) session.keepalive();
  }, settings.pingSeconds * 1000);
  pings.unref();

  return {
    server,
    disconnectDevice: (mac, reason) =>
      registry.closeDevice(mac, reason === 'revoked' ? 'device_revoked' : 'device_decommissioned'),
    revokeToken: (tokenId) => registry.closeToken(tokenId),
    async stop() {
      clearInterval(pings);
      server.close();
      const sessions = registry.all();
      const ended = sessions.map((s) => s.whenEnded());
      for (const session of sessions) session.close('broker_shutdown');
      await Promise.all(ended);
    },
  };
}
