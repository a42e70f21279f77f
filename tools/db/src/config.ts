import { join } from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_MIGRATION_DATABASE_URL,
  envUrl,
  findWorkspaceRoot,
  loadConfig,
} from '@fleet/config';

// The only place the database tools read process.env.
const schema = z.object({
  /** The owner role: it creates the database, the tables and the application role's grants. */
  MIGRATION_DATABASE_URL: envUrl(DEFAULT_MIGRATION_DATABASE_URL, ['postgresql:', 'postgres:']),
  DATABASE_URL: envUrl(DEFAULT_DATABASE_URL, ['postgresql:', 'postgres:']),
  ADMIN_EMAIL: z.email().default('admin@localhost'),
});

export function loadDbToolsConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(schema, env);
  return {
    ownerUrl: config.MIGRATION_DATABASE_URL,
    appUrl: config.DATABASE_URL,
    adminEmail: config.ADMIN_EMAIL,
    migrationsDir: join(findWorkspaceRoot(__dirname), 'prisma/migrations'),
  };
}
