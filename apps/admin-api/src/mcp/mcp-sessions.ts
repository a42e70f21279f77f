import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { ApiError } from '../http/api-error';
import { LOGGER } from '../infra/tokens';
import { EventRelay } from '../events/event-relay';
import { LegacyMcpServers } from './legacy-server';
import { McpSession } from './mcp-session';

/**
 * The MCP sessions this process holds. A session lives where it was opened (behind several API replicas, route
 * `/mcp` by the `Mcp-Session-Id` header); a session this process does not know answers 404, upon which an MCP
 * client starts a new one. Calls themselves are rows: any replica reads them with get_call.
 */
@Injectable()
export class McpSessions implements OnModuleInit, OnModuleDestroy {
  private readonly sessions = new Map<string, McpSession>();
  private opening = 0;
  private sweeper?: NodeJS.Timeout;
  private unlisten?: Promise<() => void>;

  constructor(
    private readonly servers: LegacyMcpServers,
    private readonly relay: EventRelay,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const idleMs = this.config.MCP_SESSION_IDLE_S * 1000;
    this.sweeper = setInterval(() => this.expireIdle(idleMs), Math.min(60_000, idleMs / 2));
    this.sweeper.unref();
  }

  /**
   * MCP `notifications/tools/list_changed` to every open session when a device's catalog changes: the tools a
   * client lists are the platform's, but what list_device_tools answers for that device is not what it was.
   * Subscribed once the first session opens (the relay's one subscription per process).
   */
  private listenForCatalogs(): void {
    this.unlisten ??= this.relay.add({
      onEvent: (event) => {
        if (event.type !== 'catalog') return;
        for (const session of this.sessions.values()) void session.toolsChanged();
      },
      onClose: () => {},
    });
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    (await this.unlisten?.catch(() => undefined))?.();
    // Open streams would hold the HTTP server's close; the calls they wait on go on (they are rows).
    await Promise.all([...this.sessions.values()].map((s) => s.close().catch(() => undefined)));
    this.sessions.clear();
  }

  find(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  /**
   * A new session for an `initialize` request; the transport registers it once it has given it its id. The
   * caller calls `settled` when that request is done, whether or not the session came to be.
   */
  async open(owner: string): Promise<McpSession> {
    if (this.sessions.size + this.opening >= this.config.MCP_MAX_SESSIONS) {
      throw new ApiError(
        503,
        'too_many_sessions',
        'this server holds as many MCP sessions as it may; retry later',
        undefined,
        5,
      );
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
      },
    });
    const session = new McpSession(transport, owner);
    transport.onclose = () => {
      if (session.id) this.sessions.delete(session.id);
    };
    await session.connect(this.servers.create(session));
    this.listenForCatalogs();
    this.opening++;
    return session;
  }

  settled(): void {
    this.opening--;
  }

  private expireIdle(idleMs: number): void {
    const now = Date.now();
    for (const session of this.sessions.values()) {
      if (!session.idle || now - session.lastUsedAt < idleMs) continue;
      this.sessions.delete(session.id);
      session
        .close()
        .catch((err: unknown) => this.logger.warn({ err }, 'closing an idle MCP session failed'));
    }
  }
}
