import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { databaseUrl, TEST_POSTGRES_URL } from '@fleet/testing';
import { migrateDatabase } from './migrate';
import { readMigrationFiles } from './migration-files';

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

describe('migrateDatabase', () => {
  const name = `fleet_migrate_${process.pid}_${Date.now()}`;
  const url = databaseUrl(name);

  afterAll(async () => {
    const admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('creates the database, applies migrations in order and records them as Prisma does', async () => {
    const dir = migrationsDir({
      '20260101000000_create_a': 'CREATE TABLE a (id int PRIMARY KEY);',
      '20260102000000_add_b': 'ALTER TABLE a ADD COLUMN b text;',
    });
    const first = await migrateDatabase(url, dir);
    expect(first).toEqual({
      createdDatabase: true,
      applied: ['20260101000000_create_a', '20260102000000_add_b'],
      alreadyApplied: [],
    });
    const client = new Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(
      'SELECT migration_name, checksum, applied_steps_count, finished_at IS NOT NULL AS finished FROM "_prisma_migrations" ORDER BY migration_name',
    );
    await client.end();
    expect(rows).toEqual(
      readMigrationFiles(dir).map((f) => ({
        migration_name: f.name,
        checksum: f.checksum,
        applied_steps_count: 1,
        finished: true,
      })),
    );

    const again = await migrateDatabase(url, dir);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toHaveLength(2);
  });

  it('refuses to go on when an applied migration was edited afterwards', async () => {
    const dir = migrationsDir({
      '20260101000000_create_a': 'CREATE TABLE a (id int PRIMARY KEY); -- edited',
      '20260102000000_add_b': 'ALTER TABLE a ADD COLUMN b text;',
    });
    await expect(migrateDatabase(url, dir)).rejects.toThrow(/20260101000000_create_a was edited/);
  });

  it('leaves nothing half-applied when a migration fails', async () => {
    const dir = migrationsDir({
      '20260101000000_create_a': 'CREATE TABLE a (id int PRIMARY KEY);',
      '20260102000000_add_b': 'ALTER TABLE a ADD COLUMN b text;',
      '20260103000000_broken': 'CREATE TABLE c (id int); SELECT no_such_function();',
    });
    await expect(migrateDatabase(url, dir)).rejects.toThrow(/20260103000000_broken failed/);
    const client = new Client({ connectionString: url });
    await client.connect();
    const tables = await client.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'c'`);
    const recorded = await client.query(
      `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '20260103000000_broken'`,
    );
    await client.end();
    expect(tables.rowCount).toBe(0);
    expect(recorded.rowCount).toBe(0);
  });
});
