import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { hashClientId } from '@fleet/protocol';
import { databaseUrl, TEST_POSTGRES_URL } from '@fleet/testing';
import { migrateDatabase } from './migrate';
import { readMigrationFiles } from './migration-files';

const MIGRATIONS = join(__dirname, '../../../../prisma/migrations');
const HASHING = '20261201211907_hash_client_ids';

/** The migrations up to (and without) `last`, copied where migrateDatabase can read them. */
function migrationsBefore(last: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  for (const file of readMigrationFiles(MIGRATIONS).filter((f) => f.name < last))
    cpSync(join(MIGRATIONS, file.name), join(dir, file.name), { recursive: true });
  return dir;
}

describe('the migration that hashes Client-Ids', () => {
  const name = `fleet_hash_ids_${process.pid}_${Date.now()}`;
  const url = databaseUrl(name);
  const uuid = 'AEEBEF32-f0ef-4bce-9d8a-894d91bc6932';
  const hash = hashClientId(uuid);
  let client: Client;

  beforeAll(async () => {
    await migrateDatabase(url, migrationsBefore(HASHING));
    client = new Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    const admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('leaves no Client-Id in device, boot report, quarantine or connection rows, only the hash the code computes', async () => {
    const mac = 'a0:85:e3:f4:49:34';
    const body = JSON.stringify({ uuid, board: { type: 'bread-compact-wifi' } });
    await client.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, $2, now())`, [mac, uuid]);
    await client.query(`INSERT INTO boot_report (device_id, client_id, body) VALUES ($1, $2, $3)`, [
      mac,
      uuid,
      body,
    ]);
    await client.query(
      `INSERT INTO device_quarantine (id, device_id, claimed_client_id, body) VALUES (gen_random_uuid(), $1, $2, $3)`,
      [mac, uuid, body],
    );
    await client.query(
      `INSERT INTO connection (id, device_id, client_id, broker_id, keepalive, opened_at) VALUES ('c1', $1, $2, 'b', 240, now())`,
      [mac, `GID_bread-compact-wifi@@@a0_85_e3_f4_49_34@@@${uuid}`],
    );

    await migrateDatabase(url, MIGRATIONS);

    const { rows } = await client.query(
      `SELECT d.client_id AS device, b.client_id AS boot, b.body->>'uuid' AS boot_body,
              q.claimed_client_id AS claim, q.body->>'uuid' AS claim_body, c.client_id AS connection
         FROM device d JOIN boot_report b ON b.device_id = d.id JOIN device_quarantine q ON q.device_id = d.id
         JOIN connection c ON c.device_id = d.id`,
    );
    expect(rows).toEqual([
      {
        device: hash,
        boot: hash,
        boot_body: `sha256:${hash}`,
        claim: hash,
        claim_body: `sha256:${hash}`,
        connection: hash,
      },
    ]);
    const everything = await client.query(
      `SELECT row_to_json(t)::text AS row FROM (SELECT * FROM device) t UNION ALL
       SELECT row_to_json(t)::text FROM (SELECT * FROM boot_report) t UNION ALL
       SELECT row_to_json(t)::text FROM (SELECT * FROM device_quarantine) t UNION ALL
       SELECT row_to_json(t)::text FROM (SELECT * FROM connection) t`,
    );
    expect(
      everything.rows
        .map((r: { row: string }) => r.row)
        .join('\n')
        .toLowerCase(),
    ).not.toContain(uuid.toLowerCase());
  });
});
