import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_MIGRATION_DATABASE_URL,
  envInt,
  envLogLevel,
  envUrl,
  findWorkspaceRoot,
  loadConfig,
} from '@fleet/config';
import { DEFAULT_RESTART_POLICY, type RestartPolicy } from './restart-backoff';
import type { ServiceSpec } from './services';

// The only place the launcher reads process.env. The rest of the environment is passed on to the services,
// each of which validates its own variables.
const schema = z.object({
  DATABASE_URL: envUrl(DEFAULT_DATABASE_URL, ['postgresql:', 'postgres:']),
  MIGRATION_DATABASE_URL: envUrl(DEFAULT_MIGRATION_DATABASE_URL, ['postgresql:', 'postgres:']),
  LOG_LEVEL: envLogLevel(),
  /** `pretty` shows one short line per log event; `json` passes the services' JSON lines through. */
  LOG_FORMAT: z.enum(['pretty', 'json']).default('pretty'),
  /** A service that dies is restarted after this wait, doubled with each death in a row up to the longest. */
  LAUNCHER_RESTART_DELAY_MS: envInt(DEFAULT_RESTART_POLICY.initialMs, { min: 100, max: 600_000 }),
  LAUNCHER_RESTART_MAX_DELAY_MS: envInt(DEFAULT_RESTART_POLICY.maxMs, { min: 100, max: 3_600_000 }),
});

export function loadLauncherConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(schema, env);
  const root = findWorkspaceRoot(__dirname);
  return {
    ...config,
    root,
    migrationsDir: join(root, 'prisma/migrations'),
    restartPolicy: {
      ...DEFAULT_RESTART_POLICY,
      initialMs: config.LAUNCHER_RESTART_DELAY_MS,
      maxMs: Math.max(config.LAUNCHER_RESTART_DELAY_MS, config.LAUNCHER_RESTART_MAX_DELAY_MS),
    } satisfies RestartPolicy,
    /**
     * Each supervised service's replica id for this run of the launcher (unless set): the same after a restart,
     * so a restarted broker closes its own earlier connection rows and a restarted voice worker answers the turns
     * it held, at once rather than after another replica's timeout.
     */
    identityFor(service: ServiceSpec): Record<string, string> {
      const variable = service.identityVariable;
      // One set for every service, or `<SERVICE>__<VAR>` (which envFor puts last), stays as it is.
      if (!variable || env[variable]) return {};
      return { [variable]: `${hostname()}-${process.pid}-${service.name}` };
    },
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
