import { EventEmitter } from 'node:events';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { PrincipalCache } from '@fleet/auth';
import type { Logger } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { LOGGER } from '../infra/tokens';
import type { KeyOwner, SessionOwner } from './credentials.repository';
import { listenForCredentialChanges, pingListener } from './credential-notices.repository';

// A backstop only: every change is announced. Also bounds how long a silently dead listening connection (no
// RST, so no error) could leave a change unheard, together with the ping below.
const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 10_000;
const PING_MS = 10_000;
const RECONNECT_MS = 1_000;
/** How the listening connection is named in pg_stat_activity. */
export const LISTENER_NAME = 'admin-api credential notices';

export type CachedOwner = { kind: 'key'; owner: KeyOwner } | { kind: 'session'; owner: SessionOwner };

/**
 * Keeps the principal cache honest on every replica: it LISTENs on `credentials_changed` and clears the cache on
 * each notice; while it is not listening (not yet connected, connection lost) the cache is suspended, so every
 * request reads the database as it did before there was a cache. A revoked key or an ended session stops working
 * on every replica once its transaction commits and the notice arrives, and on the replica that made the
 * change before that change's answer is sent (`registerCredentialFlush`).
 */
@Injectable()
export class CredentialChanges implements OnApplicationBootstrap, OnModuleDestroy {
  readonly cache = new PrincipalCache<CachedOwner>({ max: CACHE_MAX, ttlMs: CACHE_TTL_MS });
  private readonly events = new EventEmitter();
  private client: Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    // Not awaited: with Postgres down at start the API starts all the same and answers 503s.
    void this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.cache.suspend();
    await this.client?.end().catch(() => undefined);
  }

  /** Resolves once the cache is live (notices are heard). */
  listening(): Promise<void> {
    if (this.cache.enabled) return Promise.resolve();
    return new Promise((resolve) => this.events.once('listening', resolve));
  }

  /** Resolves at the next clear of the cache (a notice heard, or a local change). */
  nextClear(): Promise<void> {
    return new Promise((resolve) => this.events.once('cleared', resolve));
  }

  clear(): void {
    this.cache.clear();
    this.events.emit('cleared');
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.config.DATABASE_URL,
      application_name: LISTENER_NAME,
      keepAlive: true,
      query_timeout: 2_000,
      connectionTimeoutMillis: 2_000,
    });
    this.client = client;
    client.on('notification', () => this.clear());
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, undefined));
    try {
      await client.connect();
      await listenForCredentialChanges(client);
    } catch (err) {
      this.lost(client, err as Error);
      return;
    }
    if (this.client !== client) return;
    this.cache.resume();
    this.events.emit('listening');
    this.schedule(() => this.ping(client), PING_MS);
  }

  /** A query on the listening connection: one that cannot answer is a connection that hears nothing. */
  private async ping(client: Client): Promise<void> {
    try {
      await pingListener(client);
      if (this.client === client) this.schedule(() => this.ping(client), PING_MS);
    } catch (err) {
      this.lost(client, err as Error);
    }
  }

  private lost(client: Client, err: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.cache.suspend();
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.logger.warn({ err }, 'credential notices unheard; API keys and sessions are read from the database');
    this.schedule(() => this.connect(), RECONNECT_MS);
  }

  private schedule(run: () => Promise<void>, ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void run(), ms);
    this.timer.unref();
  }
}
