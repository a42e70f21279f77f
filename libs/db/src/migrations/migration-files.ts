import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export interface MigrationFile {
  /** Folder name, `<timestamp>_<verb>_<object>`: Prisma's own layout. */
  name: string;
  sql: string;
  /** Hex sha256 of the file's bytes, as Prisma records it in `_prisma_migrations.checksum`. */
  checksum: string;
}

/** Reads `prisma/migrations/<name>/migration.sql` in name order (the timestamp prefix orders them). */
export function readMigrationFiles(migrationsDir: string): MigrationFile[] {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(migrationsDir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(migrationsDir, name, 'migration.sql'));
      return {
        name,
        sql: bytes.toString('utf8'),
        checksum: createHash('sha256').update(bytes).digest('hex'),
      };
    });
}

/** One checksum over every migration: a template database built from it is still current when this matches. */
export function migrationSetChecksum(files: MigrationFile[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f.name}:${f.checksum}\n`);
  return hash.digest('hex');
}
