import { devSecretsPath, loadOrCreateDevSecrets } from './dev-secrets';
import { envList } from './env-types';
import { ConfigError } from './load-config';
import { findWorkspaceRoot } from './workspace-root';

/**
 * The AES-256 keys that seal imported eFuse keys at rest (activation v2, DESIGN §3), newest first: the first
 * seals, every one opens what it sealed (rotation). The broker and the admin API both need them.
 */
export const efuseWrappingEnv = {
  EFUSE_WRAPPING_KEYS: envList(),
};

const VARIABLE = 'EFUSE_WRAPPING_KEYS';

/** 32 bytes each, as 64 hex digits or base64 / base64url; in development the key `.local/dev-secrets.json` holds. */
export function resolveEfuseWrappingKeys(configured: string[], nodeEnv: string): Buffer[] {
  if (configured.length === 0) {
    if (nodeEnv === 'production') {
      throw new ConfigError([
        { variable: VARIABLE, message: 'required in production (no development fallback)' },
      ]);
    }
    configured = [loadOrCreateDevSecrets(devSecretsPath(findWorkspaceRoot(__dirname))).efuseWrappingKey];
  }
  return configured.map((text) => {
    const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64url');
    if (key.length !== 32) {
      throw new ConfigError([
        { variable: VARIABLE, message: 'each key is 32 bytes (64 hex digits or base64)' },
      ]);
    }
    return key;
  });
}
