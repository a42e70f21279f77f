// `npm run db:migrate`: create the database when missing and apply pending migrations.
import { loadDbToolsConfig } from './config';
import { describeMigration, runMigrations } from '@fleet/db';

async function main(): Promise<void> {
  const { ownerUrl, migrationsDir } = loadDbToolsConfig();
  const result = await runMigrations(ownerUrl, migrationsDir);
  console.log(`db:migrate: ${describeMigration(result)}`);
}

main().catch((err: Error) => {
  console.error(`db:migrate failed: ${err.message}`);
  process.exit(1);
});
