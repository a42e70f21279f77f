import type { Pool } from '@fleet/db';
import type { Logger } from '@fleet/telemetry';

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

  constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
    private readonly delayMs = 10,
  ) {}

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
      if (opened.length) await this.writeOpened(opened);
      if (closed.length) await this.writeClosed(closed);
    } catch (err) {
      // Presence is also in the MQTT event stream; a lost write is logged, not retried forever.
      this.logger.error({ err, opened: opened.length, closed: closed.length }, 'presence write failed');
    }
  }

  private async writeOpened(events: ConnectionOpened[]): Promise<void> {
    await this.pool.query(
      `INSERT INTO connection (id, device_id, client_id, broker_id, remote_address, keepalive, opened_at, online_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::timestamptz[], $8::timestamptz[])
       ON CONFLICT (id) DO NOTHING`,
      [
        events.map((e) => e.connectionId),
        events.map((e) => e.mac),
        events.map((e) => e.clientIdHash),
        events.map((e) => e.brokerId),
        events.map((e) => e.remoteAddress ?? null),
        events.map((e) => e.keepalive),
        events.map((e) => e.openedAt),
        events.map((e) => e.onlineAt),
      ],
    );
    // One row per device: the newest connection of the batch.
    const latest = new Map<string, ConnectionOpened>();
    for (const e of events) {
      const seen = latest.get(e.mac);
      if (!seen || seen.openedAt <= e.openedAt) latest.set(e.mac, e);
    }
    const rows = [...latest.values()];
    await this.pool.query(
      `UPDATE device d SET online = true, connection_id = u.connection_id, last_seen_at = u.online_at, updated_at = now()
         FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS u(mac, connection_id, opened_at, online_at)
        WHERE d.id = u.mac
          AND NOT EXISTS (SELECT 1 FROM connection c WHERE c.id = d.connection_id AND c.opened_at > u.opened_at)`,
      [
        rows.map((e) => e.mac),
        rows.map((e) => e.connectionId),
        rows.map((e) => e.openedAt),
        rows.map((e) => e.onlineAt),
      ],
    );
  }

  private async writeClosed(events: ConnectionClosed[]): Promise<void> {
    await this.pool.query(
      `UPDATE connection c SET closed_at = u.closed_at, close_reason = u.reason
         FROM unnest($1::text[], $2::timestamptz[], $3::text[]) AS u(id, closed_at, reason)
        WHERE c.id = u.id AND c.closed_at IS NULL`,
      [events.map((e) => e.connectionId), events.map((e) => e.closedAt), events.map((e) => e.reason)],
    );
    await this.pool.query(
      `UPDATE device d SET online = false, last_seen_at = u.closed_at, updated_at = now()
         FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS u(mac, connection_id, closed_at)
        WHERE d.id = u.mac AND d.connection_id = u.connection_id`,
      [events.map((e) => e.mac), events.map((e) => e.connectionId), events.map((e) => e.closedAt)],
    );
  }
}
