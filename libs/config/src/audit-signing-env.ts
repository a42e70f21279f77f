import { z } from 'zod';
import { devSecretsPath, loadOrCreateAuditSigningKey } from './dev-secrets';
import { ConfigError } from './load-config';
import { findWorkspaceRoot } from './workspace-root';

/** The platform's audit signing key (DESIGN §6: exports carry its Ed25519 signature). */
export const auditSigningEnv = {
  AUDIT_SIGNING_KEY: z.string().min(1).optional(),
};

/**
 * The audit signing key's text: configured, or in development the one `.local/dev-secrets.json` holds (created
 * once). Production without one refuses to start: an export signed with a key nobody configured proves nothing.
 */
export function resolveAuditSigningKey(configured: string | undefined, nodeEnv: string): string {
  if (configured) return configured;
  if (nodeEnv === 'production') {
    throw new ConfigError([{ variable: 'AUDIT_SIGNING_KEY', message: 'required in production' }]);
  }
  return loadOrCreateAuditSigningKey(devSecretsPath(findWorkspaceRoot(__dirname)));
}
