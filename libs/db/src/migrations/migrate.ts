import { Client } from 'pg';
import { applyMigrations, type MigrationReport } from './apply-migrations';
import { ensureDatabase } from './ensure-database';
import { readMigrationFiles } from './migration-files';

export interface MigrateResult extends MigrationReport {
  createdDatabase: boolean;
}

/** `npm run db:migrate`: create the database if needed, then apply what is pending. */
export async function migrateDatabase(ownerUrl: string, migrationsDir: string): Promise<MigrateResult> {
  const createdDatabase = await ensureDatabase(ownerUrl);
  const client = new Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const report = await applyMigrations(client, readMigrationFiles(migrationsDir));
    return { createdDatabase, ...report };
  } finally {
    await client.end();
  }
}
