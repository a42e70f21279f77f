import { z } from 'zod';
import { auditSigningEnv, commonEnv, loadConfig, sealSigningEnv } from '@fleet/config';

// The only place the audit tools read process.env (the verifier itself reads nothing but its arguments).
const schema = z.object({
  ...commonEnv,
  ...auditSigningEnv,
  ...sealSigningEnv,
  CHECKPOINT_ORIGIN: z.string().default('voice-fleet.local/evidence'),
});

export function loadAuditToolsConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(schema, env);
}

/** Where `npm run` was started (it runs scripts from the package root): relative paths are the user's. */
export function invocationDir(env: NodeJS.ProcessEnv = process.env): string {
  return env['INIT_CWD'] ?? process.cwd();
}
