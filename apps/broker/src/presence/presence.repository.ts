import { sql, type Database, type Row } from '@fleet/db';
import type { ConnectionClosed, ConnectionOpened } from './presence-writer';

type ConnectionRow = Row<'connection'>;

/**
 * The presence statements of one group commit (DESIGN §8): each takes a whole batch as one array per column
 * (unnest has no Kysely builder; the rows it yields are typed from the generated tables).
 *
 * A device row only takes a connection that opened later than the one it holds, and only the connection it
 * holds can take it offline.
 */
export class PresenceRepository {
  constructor(private readonly db: Database) {}

  async insertConnections(events: ConnectionOpened[]): Promise<void> {
    const opened = sql<ConnectionRow>`unnest(${events.map((e) => e.connectionId)}::text[], ${events.map(
      (e) => e.mac,
    )}::text[], ${events.map((e) => e.clientIdHash)}::text[], ${events.map(
      (e) => e.brokerId,
    )}::text[], ${events.map((e) => e.remoteAddress ?? null)}::text[], ${events.map(
      (e) => e.keepalive,
    )}::int[], ${events.map((e) => e.openedAt)}::timestamptz[], ${events.map(
      (e) => e.onlineAt,
    )}::timestamptz[])`.as<'u'>(
      sql`u(id, device_id, client_id, broker_id, remote_address, keepalive, opened_at, online_at)`,
    );
    await this.db
      .insertInto('connection')
      .columns([
        'id',
        'device_id',
        'client_id',
        'broker_id',
        'remote_address',
        'keepalive',
        'opened_at',
        'online_at',
      ])
      .expression(
        this.db
          .selectFrom(opened)
          .select([
            'u.id',
            'u.device_id',
            'u.client_id',
            'u.broker_id',
            'u.remote_address',
            'u.keepalive',
            'u.opened_at',
            'u.online_at',
          ]),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  /** Each device (one event per device) goes online with its connection, unless it holds a newer one. */
  async markOnline(latest: ConnectionOpened[]): Promise<void> {
    const input = sql<{
      mac: Row<'device'>['id'];
      connection_id: ConnectionRow['id'];
      opened_at: ConnectionRow['opened_at'];
      online_at: Date;
    }>`unnest(${latest.map((e) => e.mac)}::text[], ${latest.map(
      (e) => e.connectionId,
    )}::text[], ${latest.map((e) => e.openedAt)}::timestamptz[], ${latest.map(
      (e) => e.onlineAt,
    )}::timestamptz[])`.as<'u'>(sql`u(mac, connection_id, opened_at, online_at)`);
    await this.db
      .updateTable('device as d')
      .from(input)
      .set((eb) => ({
        online: true,
        connection_id: eb.ref('u.connection_id'),
        last_seen_at: eb.ref('u.online_at'),
        updated_at: sql<Date>`now()`,
      }))
      .whereRef('d.id', '=', 'u.mac')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('connection as c')
              .select(sql`1`.as('one'))
              .whereRef('c.id', '=', 'd.connection_id')
              .whereRef('c.opened_at', '>', 'u.opened_at'),
          ),
        ),
      )
      .execute();
  }

  /** Closes each connection once; a close already recorded stays as it was. */
  async closeConnections(events: ConnectionClosed[]): Promise<void> {
    const input = sql<{
      id: ConnectionRow['id'];
      closed_at: Date;
      reason: string;
    }>`unnest(${events.map((e) => e.connectionId)}::text[], ${events.map(
      (e) => e.closedAt,
    )}::timestamptz[], ${events.map((e) => e.reason)}::text[])`.as<'u'>(sql`u(id, closed_at, reason)`);
    await this.db
      .updateTable('connection as c')
      .from(input)
      .set((eb) => ({ closed_at: eb.ref('u.closed_at'), close_reason: eb.ref('u.reason') }))
      .whereRef('c.id', '=', 'u.id')
      .where('c.closed_at', 'is', null)
      .execute();
  }

  /** A device goes offline only through the connection it holds. */
  async markOffline(events: ConnectionClosed[]): Promise<void> {
    const input = sql<{
      mac: Row<'device'>['id'];
      connection_id: ConnectionRow['id'];
      closed_at: Date;
    }>`unnest(${events.map((e) => e.mac)}::text[], ${events.map(
      (e) => e.connectionId,
    )}::text[], ${events.map((e) => e.closedAt)}::timestamptz[])`.as<'u'>(
      sql`u(mac, connection_id, closed_at)`,
    );
    await this.db
      .updateTable('device as d')
      .from(input)
      .set((eb) => ({
        online: false,
        last_seen_at: eb.ref('u.closed_at'),
        updated_at: sql<Date>`now()`,
      }))
      .whereRef('d.id', '=', 'u.mac')
      .whereRef('d.connection_id', '=', 'u.connection_id')
      .execute();
  }
}
