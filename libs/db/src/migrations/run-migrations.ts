import { migrateDatabase, type MigrateResult } from './migrate';
import { HOW_TO_START } from '@fleet/telemetry';

/** Applies migrations, turning "Postgres is down" into a sentence that says how to start it. */
export async function runMigrations(ownerUrl: string, migrationsDir: string): Promise<MigrateResult> {
  try {
    return await migrateDatabase(ownerUrl, migrationsDir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT') {
      const where = new URL(ownerUrl);
      throw new Error(`Postgres is not reachable at ${where.host} (${code}); ${HOW_TO_START.postgres}`);
    }
    throw err;
  }
}

export function describeMigration(result: MigrateResult): string {
  const parts = [];
  if (result.createdDatabase) parts.push('created the database');
  parts.push(
    result.applied.length
      ? `applied ${result.applied.length} migration(s): ${result.applied.join(', ')}`
      : `schema up to date (${result.alreadyApplied.length} migrations)`,
  );
  return parts.join('; ');
}
