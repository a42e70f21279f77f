import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { applyMigrations, migrationSetChecksum, readMigrationFiles } from '@fleet/db';
import { databaseUrl, TEMPLATE_DATABASE, TEST_POSTGRES_URL } from '@fleet/testing';

/**
 * Runs once before the tests: brings the template database up to date with prisma/migrations.
 * Each test file then clones it (CREATE DATABASE … TEMPLATE), which takes milliseconds.
 */
export default async function globalSetup(): Promise<void> {
  // Integration tests run some services as their own processes, from dist/ as `npm start` does.
  const build = spawnSync(process.execPath, [join(__dirname, '../build/build.js')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stderr}`);

  const files = readMigrationFiles(join(__dirname, '../../prisma/migrations'));
  const checksum = migrationSetChecksum(files);
  const admin = new Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `Postgres is not reachable at ${TEST_POSTGRES_URL} (${(err as Error).message}). ` +
        'Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
    );
  }
  try {
    const { rows } = await admin.query<{ comment: string | null }>(
      'SELECT shobj_description(oid, $2) AS comment FROM pg_database WHERE datname = $1',
      [TEMPLATE_DATABASE, 'pg_database'],
    );
    if (rows[0]?.comment === checksum) return;
    await admin.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DATABASE}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"`);
    const template = new Client({ connectionString: databaseUrl(TEMPLATE_DATABASE) });
    await template.connect();
    try {
      await applyMigrations(template, files);
    } finally {
      await template.end();
    }
    await admin.query(`COMMENT ON DATABASE "${TEMPLATE_DATABASE}" IS '${checksum}'`);
  } finally {
    await admin.end();
  }
}
