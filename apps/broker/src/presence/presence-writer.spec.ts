import { Pool } from 'pg';
import { createLogger } from '@fleet/telemetry';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { PresenceWriter, type ConnectionOpened } from './presence-writer';

const X = '02:7d:00:00:00:01';
const Y = '02:7d:00:00:00:02';

const opened = (mac: string, connectionId: string): ConnectionOpened => ({
  connectionId,
  mac,
  clientIdHash: `hash-${mac}`,
  brokerId: 'broker-test',
  remoteAddress: '127.0.0.1',
  keepalive: 240,
  openedAt: new Date(),
  onlineAt: new Date(),
});

describe('the presence writer', () => {
  let db: TestDatabase;
  let pool: Pool;
  let statements: string[];

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    for (const mac of [X, Y])
      await pool.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, $2, now())`, [mac, mac]);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('writes a batch again when Postgres chose it to give way in a deadlock, instead of losing it', async () => {
    const lines: string[] = [];
    // The writer's own pool, its statements recorded on the connections (Kysely checks one out for each).
    const writerPool = new Pool({ connectionString: db.url, max: 2 });
    statements = [];
    writerPool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((...args: unknown[]) => {
        statements.push(String(args[0]).slice(0, 30));
        return query(...args);
      }) as typeof client.query;
    });
    const writer = new PresenceWriter(
      writerPool,
      createLogger('test', 'info', { write: (l: string) => lines.push(l) }),
    );
    // Another batch (as the orchestrator's discovery units are) holds Y and will want X, which ours takes first
    // (the rows are visited in the order they were inserted).
    const other = await pool.connect();
    try {
      await other.query('BEGIN');
      await other.query(`UPDATE device SET updated_at = now() WHERE id = $1`, [Y]);
      writer.recordOpened(opened(X, 'c-x'));
      writer.recordOpened(opened(Y, 'c-y'));
      const written = writer.flush();
      await new Promise((resolve) => setTimeout(resolve, 300)); // ours now holds X and waits for Y
      // Theirs now waits for ours: a deadlock, which Postgres breaks by rolling back the one that waited first.
      const theirs = other
        .query(`UPDATE device SET updated_at = now() WHERE id = $1`, [X])
        .then(() => other.query('COMMIT'));
      await Promise.all([written, theirs]);
    } finally {
      other.release();
      await writerPool.end();
    }
    const { rows } = await pool.query<{ id: string; online: boolean; connection_id: string }>(
      `SELECT id, online, connection_id FROM device ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: X, online: true, connection_id: 'c-x' },
      { id: Y, online: true, connection_id: 'c-y' },
    ]);
    expect(lines.filter((l) => l.includes('presence write failed'))).toEqual([]);
    // The connections' insert, the device update that gave way, and the same update again.
    expect(statements.filter((s) => s.startsWith('update "device"'))).toHaveLength(2);
  });
});
