import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { type MigrationFile } from './migration-files';

// Prisma's own bookkeeping table, so `prisma migrate deploy` sees the same history wherever its engine runs.
const CREATE_PRISMA_MIGRATIONS = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// Any constant: two migrators (two replicas starting at once) must not interleave.
const MIGRATION_LOCK_KEY = 72707369;

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Applies pending migrations in order, each in its own transaction, and records them in `_prisma_migrations`.
 * Refuses to continue when an applied migration's file changed or an earlier attempt failed half-way.
 */
export async function applyMigrations(client: Client, files: MigrationFile[]): Promise<MigrationReport> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await client.query(CREATE_PRISMA_MIGRATIONS);
    const { rows } = await client.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    );
    const recorded = new Map(rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    const report: MigrationReport = { applied: [], alreadyApplied: [] };
    for (const file of files) {
      const row = recorded.get(file.name);
      if (row) {
        if (row.finished_at === null) {
          throw new MigrationError(
            `migration ${file.name} started earlier and did not finish: resolve it by hand`,
          );
        }
        if (row.checksum !== file.checksum) {
          throw new MigrationError(
            `migration ${file.name} was edited after it was applied (checksum differs)`,
          );
        }
        report.alreadyApplied.push(file.name);
        continue;
      }
      await applyOne(client, file);
      report.applied.push(file.name);
    }
    return report;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
}

async function applyOne(client: Client, file: MigrationFile): Promise<void> {
  const id = randomUUID();
  await client.query('BEGIN');
  try {
    await client.query(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
      [id, file.checksum, file.name],
    );
    await client.query(file.sql);
    await client.query(
      'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
      [id],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw new MigrationError(`migration ${file.name} failed: ${(err as Error).message}`);
  }
}
