export { readMigrationFiles, migrationSetChecksum, type MigrationFile } from './migration-files';
export { applyMigrations, MigrationError, type MigrationReport } from './apply-migrations';
export { ensureDatabase } from './ensure-database';
export { migrateDatabase, type MigrateResult } from './migrate';
export { runMigrations, describeMigration } from './run-migrations';
