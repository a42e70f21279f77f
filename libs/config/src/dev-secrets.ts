import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/**
 * Secrets a local `npm start` invents once and keeps in `.local/dev-secrets.json` (git-ignored), so that
 * a development machine works with nothing configured and devices keep their credentials across restarts.
 * Production never reads this file: a production start without configured secrets refuses to run.
 */
const devSecretsSchema = z.object({
  deviceSigningKey: z.string().min(16),
  services: z.record(z.string(), z.string().min(16)),
  /** The Ed25519 key that signs audit exports (base64 of its 32 bytes); added to an older file when first needed. */
  auditSigningKey: z.string().min(16).optional(),
});
export type DevSecrets = z.infer<typeof devSecretsSchema>;

export const SERVICE_IDENTITIES = ['orchestrator', 'voice-worker', 'admin-api'] as const;
export type ServiceIdentity = (typeof SERVICE_IDENTITIES)[number];

export function devSecretsPath(workspaceRoot: string): string {
  return join(workspaceRoot, '.local', 'dev-secrets.json');
}

export function loadOrCreateDevSecrets(path: string): DevSecrets {
  try {
    return devSecretsSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secrets: DevSecrets = {
    deviceSigningKey: randomBytes(32).toString('base64url'),
    services: Object.fromEntries(SERVICE_IDENTITIES.map((id) => [id, randomBytes(24).toString('base64url')])),
    auditSigningKey: newAuditSigningKey(),
  };
  mkdirSync(dirname(path), { recursive: true });
  try {
    // 'wx': when two services start at once, the first writer wins and the other reads its file.
    writeFileSync(path, JSON.stringify(secrets, null, 2) + '\n', { flag: 'wx', mode: 0o600 });
    return secrets;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return devSecretsSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  }
}

/**
 * The development audit signing key, added to a file written before it existed. The file is rewritten whole
 * (renamed into place, so a reader never sees half of it) and read again: when two processes add one at once, the
 * key that reached the file is the one both use.
 */
export function loadOrCreateAuditSigningKey(path: string): string {
  const secrets = loadOrCreateDevSecrets(path);
  if (secrets.auditSigningKey) return secrets.auditSigningKey;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(
    temporary,
    JSON.stringify({ ...secrets, auditSigningKey: newAuditSigningKey() }, null, 2) + '\n',
    {
      mode: 0o600,
    },
  );
  renameSync(temporary, path);
  return loadOrCreateDevSecrets(path).auditSigningKey!;
}

// An Ed25519 private key is 32 random bytes (RFC 8032 §5.1.5).
function newAuditSigningKey(): string {
  return randomBytes(32).toString('base64');
}
