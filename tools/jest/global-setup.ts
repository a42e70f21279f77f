import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { applyMigrations, migrationSetChecksum, readMigrationFiles } from '@fleet/db';
import { databaseUrl, TEST_POSTGRES_URL, templateDatabaseName } from '@fleet/testing';

// Any number will do, as long as nothing else on the server takes the same advisory lock.
const TEMPLATE_LOCK = 7_317_001;

/**
 * Runs once before the tests: makes sure a template database migrated with exactly prisma/migrations exists.
 * Each test file then clones it (CREATE DATABASE … TEMPLATE), which takes milliseconds.
 */
export default async function globalSetup(): Promise<void> {
  // Integration tests run some services as their own processes, from dist/ as `npm start` does.
  const build = spawnSync(process.execPath, [join(__dirname, '../build/build.js')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stderr}`);

  const files = readMigrationFiles(join(__dirname, '../../prisma/migrations'));
  const checksum = migrationSetChecksum(files);
  const template = templateDatabaseName(checksum);
  // The workers are started after this returns and inherit the variable.
  process.env['FLEET_TEST_TEMPLATE'] = template;
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
    // Another checkout's test run may be building the same template right now: one builds, the other waits.
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const { rows } = await admin.query<{ comment: string | null }>(
      'SELECT shobj_description(oid, $2) AS comment FROM pg_database WHERE datname = $1',
      [template, 'pg_database'],
    );
    if (rows[0]?.comment === checksum) return;
    await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${template}"`);
    const client = new Client({ connectionString: databaseUrl(template) });
    await client.connect();
    try {
      await applyMigrations(client, files);
    } finally {
      await client.end();
    }
    // The comment marks the template complete: a run stopped halfway leaves none, and the next one rebuilds it.
    await admin.query(`COMMENT ON DATABASE "${template}" IS '${checksum}'`);
  } finally {
    await admin.end();
  }
}
