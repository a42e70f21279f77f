import { createDatabase, retriedOnDeadlock, type Pool } from '@fleet/db';
import type { Logger } from '@fleet/telemetry';
import { PresenceRepository } from './presence.repository';

export interface ConnectionOpened {
  connectionId: string;
  mac: string;
  /** sha256 of the connection's Client-Id (DESIGN §3: never the Client-Id itself). */
  clientIdHash: string;
  brokerId: string;
  remoteAddress: string | undefined;
  keepalive: number;
  openedAt: Date;
  onlineAt: Date;
}

export interface ConnectionClosed {
  connectionId: string;
  mac: string;
  closedAt: Date;
  reason: string;
}

/**
 * Presence rows, written as a group commit: events of many devices go into one statement per kind every few
 * milliseconds (a connection storm of 10,000 devices must not mean 30,000 round trips).
 *
 * Rows are keyed by connection id. A device row only takes a connection that opened later than the one it
 * holds, and only the connection it holds can take it offline: a late "offline" from an old connection, a
 * takeover, or a reconnect through another replica never overrides a newer "online".
 */
export class PresenceWriter {
  private opened: ConnectionOpened[] = [];
  private closed: ConnectionClosed[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly presence: PresenceRepository;

  constructor(
    pool: Pool,
    private readonly logger: Logger,
    private readonly delayMs = 10,
  ) {
    this.presence = new PresenceRepository(createDatabase(pool));
  }

  recordOpened(event: ConnectionOpened): void {
    this.opened.push(event);
    this.schedule();
  }

  recordClosed(event: ConnectionClosed): void {
    this.closed.push(event);
    this.schedule();
  }

  /** Writes whatever is pending; resolves once it is committed. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const opened = this.opened.splice(0);
    const closed = this.closed.splice(0);
    this.flushing = this.flushing.then(() => this.write(opened, closed));
    return this.flushing;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  private async write(opened: ConnectionOpened[], closed: ConnectionClosed[]): Promise<void> {
    if (opened.length === 0 && closed.length === 0) return;
    try {
      // Every presence statement can run again as it is (an insert that finds its row does nothing, an update
      // moves a row only forwards), so one rolled back to break a deadlock with a discovery batch runs again.
      if (opened.length) await retriedOnDeadlock(() => this.writeOpened(opened));
      if (closed.length) await retriedOnDeadlock(() => this.writeClosed(closed));
    } catch (err) {
      // Presence is also in the MQTT event stream; a lost write is logged, not retried forever.
      this.logger.error({ err, opened: opened.length, closed: closed.length }, 'presence write failed');
    }
  }

  private async writeOpened(events: ConnectionOpened[]): Promise<void> {
    await this.presence.insertConnections(events);
    // One row per device: the newest connection of the batch.
    const latest = new Map<string, ConnectionOpened>();
    for (const e of events) {
      const seen = latest.get(e.mac);
      if (!seen || seen.openedAt <= e.openedAt) latest.set(e.mac, e);
    }
    await this.presence.markOnline([...latest.values()]);
  }

  private async writeClosed(events: ConnectionClosed[]): Promise<void> {
    await this.presence.closeConnections(events);
    await this.presence.markOffline(events);
  }
}
