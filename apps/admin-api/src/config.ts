import { z } from 'zod';
import { commonEnv, databaseEnv, envPort, loadConfig, redisEnv } from '@fleet/config';

// The only place the admin API reads process.env.
const schema = z.object({
  ...commonEnv,
  ...databaseEnv,
  ...redisEnv,
  BIND_HOST: z.string().default('0.0.0.0'),
  HTTP_PORT: envPort(8080),
});

export type AdminApiConfig = z.infer<typeof schema>;

export function loadAdminApiConfig(env: NodeJS.ProcessEnv = process.env): AdminApiConfig {
  return loadConfig(schema, env);
}

/** Injection token for the validated configuration. */
export const ADMIN_API_CONFIG = Symbol('AdminApiConfig');
