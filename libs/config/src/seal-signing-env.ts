import { z } from 'zod';
import { devSecretsPath, loadOrCreateSealSigningKey } from './dev-secrets';
import { ConfigError } from './load-config';
import { findWorkspaceRoot } from './workspace-root';

/** The orchestrator's seal signing key (DESIGN §6: every seal link carries its Ed25519 signature). */
export const sealSigningEnv = {
  SEAL_SIGNING_KEY: z.string().min(1).optional(),
  /** The key's name in its verifier key string (C2SP signed-note: no space, no '+'). */
  SEAL_KEY_NAME: z
    .string()
    .regex(/^[^\s+]+$/, 'a key name holds no space and no +')
    .default('voice-fleet-orchestrator'),
};

/** The seal keys a deployment accepts: verifier key strings, separated by commas or white space. */
export const sealKeysEnv = {
  SEAL_PUBLIC_KEYS: z.string().min(1).optional(),
};

/**
 * The seal signing key's text: configured, or in development the one `.local/dev-secrets.json` holds (created once).
 * Production without one refuses to start.
 */
export function resolveSealSigningKey(configured: string | undefined, nodeEnv: string): string {
  if (configured) return configured;
  if (nodeEnv === 'production') {
    throw new ConfigError([{ variable: 'SEAL_SIGNING_KEY', message: 'required in production' }]);
  }
  return loadOrCreateSealSigningKey(devSecretsPath(findWorkspaceRoot(__dirname)));
}

/**
 * The accepted seal keys as configured, or in development the development key's (`devKey` derives its verifier key
 * string). Production without a list refuses to start: a check that accepts any key proves nothing.
 */
export function resolveSealPublicKeys(
  configured: string | undefined,
  nodeEnv: string,
  devKey: (signingKey: string) => string,
): string {
  if (configured) return configured;
  if (nodeEnv === 'production') {
    throw new ConfigError([{ variable: 'SEAL_PUBLIC_KEYS', message: 'required in production' }]);
  }
  return devKey(resolveSealSigningKey(undefined, nodeEnv));
}
