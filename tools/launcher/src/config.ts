import { join } from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_MIGRATION_DATABASE_URL,
  envLogLevel,
  envUrl,
  findWorkspaceRoot,
  loadConfig,
} from '@fleet/config';

// The only place the launcher reads process.env. The rest of the environment is passed on to the services,
// each of which validates its own variables.
const schema = z.object({
  DATABASE_URL: envUrl(DEFAULT_DATABASE_URL, ['postgresql:', 'postgres:']),
  MIGRATION_DATABASE_URL: envUrl(DEFAULT_MIGRATION_DATABASE_URL, ['postgresql:', 'postgres:']),
  LOG_LEVEL: envLogLevel(),
  /** `pretty` shows one short line per log event; `json` passes the services' JSON lines through. */
  LOG_FORMAT: z.enum(['pretty', 'json']).default('pretty'),
});

export function loadLauncherConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(schema, env);
  const root = findWorkspaceRoot(__dirname);
  return {
    ...config,
    root,
    migrationsDir: join(root, 'prisma/migrations'),
    distDir: join(root, 'dist'),
    /**
     * The environment one service starts with: everything the launcher got, then `<SERVICE>__<VAR>` as
     * `<VAR>` for that service alone (`BROKER__HTTP_PORT=9001`), since the services share variable names.
     */
    envFor(service: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
      const prefix = `${service.toUpperCase().replace(/-/g, '_')}__`;
      const own: NodeJS.ProcessEnv = {};
      for (const [key, value] of Object.entries(env)) {
        if (key.startsWith(prefix)) own[key.slice(prefix.length)] = value;
      }
      return { ...env, LOG_LEVEL: config.LOG_LEVEL, ...extra, ...own };
    },
    /** Set explicitly by the user; otherwise the launcher points services at the broker it started. */
    mqttUrlConfigured: Boolean(env['MQTT_URL']),
  };
}
export type LauncherConfig = ReturnType<typeof loadLauncherConfig>;
