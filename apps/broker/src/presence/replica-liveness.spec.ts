import type { Aedes, PublishPacket } from 'aedes';
import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from 'pg';
import type { DB } from '@fleet/db';
import { hashClientId } from '@fleet/protocol';
import { createLogger, Registry } from '@fleet/telemetry';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createBrokerMetrics } from '../broker-metrics';
import { ReplicaLiveness } from './replica-liveness';
import { ReplicaLivenessRepository } from './replica-liveness.repository';

const SELF = 'broker-self';
const TTL_MS = 10_000;

// A replica that stopped beating leaves rows "online" nobody will close; every beat of a live replica closes them.
describe('replica liveness', () => {
  let db: TestDatabase;
  let pool: Pool;
  let statements: string[];
  let kysely: Kysely<DB>;

  const instance = (id: string, beatSecondsAgo: number) =>
    pool.query(
      `INSERT INTO service_instance (id, kind, heartbeat_at) VALUES ($1, 'broker', now() - make_interval(secs => $2))`,
      [id, beatSecondsAgo],
    );
  /** A device whose current connection is `current` (on `brokerId`), online. */
  const device = async (mac: string, connectionId: string, brokerId: string) => {
    await pool.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, $2, now())`, [
      mac,
      hashClientId(`${mac}-client`),
    ]);
    await connection(mac, connectionId, brokerId);
    await pool.query(`UPDATE device SET online = true, connection_id = $2 WHERE id = $1`, [
      mac,
      connectionId,
    ]);
  };
  const connection = (mac: string, id: string, brokerId: string, openedSecondsAgo = 30) =>
    pool.query(
      `INSERT INTO connection (id, device_id, client_id, broker_id, keepalive, opened_at)
       VALUES ($1, $2, $3, $4, 60, now() - make_interval(secs => $5))`,
      [id, mac, hashClientId(`${mac}-client`), brokerId, openedSecondsAgo],
    );
  const rowsOf = async (sql: string) => (await pool.query(sql)).rows;

  beforeEach(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    statements = [];
    kysely = new Kysely<DB>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => {
        statements.push(event.query.sql);
      },
    });
    await instance('broker-live', 1);
    await instance('broker-dead', 60);
    await device('02:00:00:00:00:01', 'c-dead', 'broker-dead');
    await device('02:00:00:00:00:02', 'c-never', 'broker-never-beat');
    await device('02:00:00:00:00:03', 'c-live', 'broker-live');
    await device('02:00:00:00:00:04', 'c-own', SELF);
    // Reconnected through a live replica: its old row on the dead one closes, the device stays online.
    await device('02:00:00:00:00:05', 'c-moved-now', 'broker-live');
    await connection('02:00:00:00:00:05', 'c-moved-before', 'broker-dead', 60);
  });
  afterEach(async () => {
    await pool.end();
    await db.drop();
  });

  it('beats and closes the open rows of replicas whose beat ran out in one statement, their devices going offline', async () => {
    const repository = new ReplicaLivenessRepository(kysely, SELF);

    const closed = await repository.beatAndCloseDead(TTL_MS);

    expect(statements).toHaveLength(1);
    expect(closed.map((c) => [c.connectionId, c.brokerId, c.mac]).sort()).toEqual([
      ['c-dead', 'broker-dead', '02:00:00:00:00:01'],
      ['c-moved-before', 'broker-dead', '02:00:00:00:00:05'],
      ['c-never', 'broker-never-beat', '02:00:00:00:00:02'],
    ]);
    expect(
      closed.every((c) => c.clientIdHash === hashClientId(`${c.mac}-client`) && c.keepalive === 60),
    ).toBe(true);
    expect(
      await rowsOf(`SELECT id, close_reason FROM connection WHERE closed_at IS NOT NULL ORDER BY id`),
    ).toEqual([
      { id: 'c-dead', close_reason: 'broker_lost' },
      { id: 'c-moved-before', close_reason: 'broker_lost' },
      { id: 'c-never', close_reason: 'broker_lost' },
    ]);
    expect(await rowsOf(`SELECT id, online FROM device ORDER BY id`)).toEqual([
      { id: '02:00:00:00:00:01', online: false },
      { id: '02:00:00:00:00:02', online: false },
      { id: '02:00:00:00:00:03', online: true },
      { id: '02:00:00:00:00:04', online: true },
      { id: '02:00:00:00:00:05', online: true },
    ]);
    expect(
      await rowsOf(
        `SELECT id FROM service_instance WHERE kind = 'broker' AND heartbeat_at > now() - interval '1 second'`,
      ),
    ).toEqual([{ id: SELF }]);
  });

  it('closes nothing and still beats when every other replica is alive', async () => {
    const repository = new ReplicaLivenessRepository(kysely, SELF);
    await repository.beatAndCloseDead(TTL_MS);
    await pool.query(`UPDATE service_instance SET heartbeat_at = now() - interval '1 minute' WHERE id = $1`, [
      SELF,
    ]);

    expect(await repository.beatAndCloseDead(TTL_MS)).toEqual([]);
    expect(
      await rowsOf(
        `SELECT id FROM service_instance WHERE id = '${SELF}' AND heartbeat_at > now() - interval '1 second'`,
      ),
    ).toHaveLength(1);
    expect(await rowsOf(`SELECT id FROM connection WHERE closed_at IS NULL ORDER BY id`)).toEqual([
      { id: 'c-live' },
      { id: 'c-moved-now' },
      { id: 'c-own' },
    ]);
  });

  it('announces each closed row offline once it starts: broker_lost for dead replicas, broker_restarted for its own earlier life', async () => {
    const published: PublishPacket[] = [];
    const aedes = {
      publish: (packet: PublishPacket, done: () => void) => {
        published.push(packet);
        done();
      },
    } as unknown as Aedes;
    const liveness = new ReplicaLiveness(
      new ReplicaLivenessRepository(kysely, SELF),
      aedes,
      createBrokerMetrics(new Registry()),
      createLogger('broker', 'silent'),
      TTL_MS,
    );

    await liveness.start(new Date());
    await liveness.stop();

    const events = published.map((p) => JSON.parse(p.payload.toString()) as Record<string, unknown>);
    expect(events.map((e) => [e['connectionId'], e['state'], e['reason']]).sort()).toEqual([
      ['c-dead', 'offline', 'broker_lost'],
      ['c-moved-before', 'offline', 'broker_lost'],
      ['c-never', 'offline', 'broker_lost'],
      ['c-own', 'offline', 'broker_restarted'],
    ]);
  });
});
