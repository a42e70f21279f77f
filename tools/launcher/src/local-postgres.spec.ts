import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { preferLocalSocket, socketUrlFor } from './local-postgres';

describe("the launcher's choice of a local Postgres socket", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('names the socket of a loopback Postgres, and nothing for another host or a url that already names one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgsock-'));
    writeFileSync(join(dir, '.s.PGSQL.5433'), '');
    const url = socketUrlFor('postgresql://fleet_app@127.0.0.1:5433/fleet', [join(dir, 'none'), dir]);
    expect(url).toBe(`postgresql://fleet_app@localhost:5433/fleet?host=${encodeURIComponent(dir)}`);
    expect(socketUrlFor('postgresql://fleet_app@127.0.0.1:5432/fleet', [dir])).toBeUndefined(); // other port
    expect(socketUrlFor('postgresql://fleet_app@db.internal:5433/fleet', [dir])).toBeUndefined();
    expect(socketUrlFor(`postgresql://fleet_app@localhost:5433/fleet?host=${dir}`, [dir])).toBeUndefined();
  });

  it("reaches the machine's Postgres through its socket, the same database as over TCP", async () => {
    const chosen = await preferLocalSocket(db.url);
    expect(chosen.socket).toBeDefined();
    const client = new Client({ connectionString: chosen.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ db: string; addr: string | null }>(
        'SELECT current_database() AS db, inet_client_addr()::text AS addr',
      );
      expect(rows[0]).toEqual({ db: new URL(db.url).pathname.slice(1), addr: null }); // null: not over TCP
    } finally {
      await client.end();
    }
  });

  it('keeps the TCP url when nothing answers on the socket it found', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgsock-'));
    const port = new URL(db.url).port || '5432';
    writeFileSync(join(dir, `.s.PGSQL.${port}`), ''); // a file, not a listening socket
    expect(await preferLocalSocket(db.url, [dir])).toEqual({ url: db.url });
  });
});
