import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  /** AES-256 key (base64url) that seals imported eFuse keys at rest (EFUSE_WRAPPING_KEYS in production). */
  efuseWrappingKey: z.string().min(43),
  /** The Ed25519 key that signs audit exports (base64 of its 32 bytes; AUDIT_SIGNING_KEY in production). */
  auditSigningKey: z.string().min(43),
  /** The orchestrator's Ed25519 key that signs seal links (base64 of its 32 bytes; SEAL_SIGNING_KEY in production). */
  sealSigningKey: z.string().min(43),
});
export type DevSecrets = z.infer<typeof devSecretsSchema>;

/** What a file written before a secret existed may lack: filled in once, for every service at the same time. */
const storedSchema = devSecretsSchema.partial({
  efuseWrappingKey: true,
  auditSigningKey: true,
  sealSigningKey: true,
});

export const SERVICE_IDENTITIES = ['orchestrator', 'voice-worker', 'admin-api'] as const;
export type ServiceIdentity = (typeof SERVICE_IDENTITIES)[number];

export function devSecretsPath(workspaceRoot: string): string {
  return join(workspaceRoot, '.local', 'dev-secrets.json');
}

const later = {
  efuseWrappingKey: () => randomBytes(32).toString('base64url'),
  // An Ed25519 private key is 32 random bytes (RFC 8032 §5.1.5).
  auditSigningKey: () => randomBytes(32).toString('base64'),
  sealSigningKey: () => randomBytes(32).toString('base64'),
} satisfies Record<string, () => string>;

export function loadOrCreateDevSecrets(path: string): DevSecrets {
  const stored = readStored(path);
  if (stored && isComplete(stored)) return stored;
  if (stored) return withLock(`${path}.lock`, () => complete(path));
  const secrets: DevSecrets = {
    deviceSigningKey: randomBytes(32).toString('base64url'),
    services: Object.fromEntries(SERVICE_IDENTITIES.map((id) => [id, randomBytes(24).toString('base64url')])),
    efuseWrappingKey: later.efuseWrappingKey(),
    auditSigningKey: later.auditSigningKey(),
    sealSigningKey: later.sealSigningKey(),
  };
  mkdirSync(dirname(path), { recursive: true });
  try {
    // 'wx': when two services start at once, the first writer wins and the other reads its file.
    writeFileSync(path, JSON.stringify(secrets, null, 2) + '\n', { flag: 'wx', mode: 0o600 });
    return secrets;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return loadOrCreateDevSecrets(path);
  }
}

function readStored(path: string): z.infer<typeof storedSchema> | undefined {
  try {
    return storedSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function isComplete(stored: z.infer<typeof storedSchema>): stored is DevSecrets {
  return Object.keys(later).every((key) => stored[key as keyof typeof later] !== undefined);
}

/**
 * Adds the secrets a file lacks. Under a lock and re-read inside it: the services start together, and two
 * of them inventing different keys (one sealing eFuse keys the other cannot open) must never happen.
 */
function complete(path: string): DevSecrets {
  const stored = readStored(path)!;
  if (isComplete(stored)) return stored;
  const filled: Record<string, unknown> = { ...stored };
  for (const [key, make] of Object.entries(later)) filled[key] ??= make();
  const secrets = devSecretsSchema.parse(filled);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  renameSync(temporary, path);
  return secrets;
}

const STALE_LOCK_MS = 5_000;

function withLock<T>(lockPath: string, work: () => T): T {
  for (;;) {
    try {
      mkdirSync(lockPath); // atomic: exactly one process creates it
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (lockAgeMs(lockPath) > STALE_LOCK_MS) rmSync(lockPath, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lockPath, { recursive: true, force: true });
  }
}

function lockAgeMs(lockPath: string): number {
  try {
    return Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return 0; // gone meanwhile: try again
  }
}

/** The development audit signing key (added, like every later secret, to a file written before it existed). */
export function loadOrCreateAuditSigningKey(path: string): string {
  return loadOrCreateDevSecrets(path).auditSigningKey;
}

/** The development seal signing key (the orchestrator's; added to a file written before it existed). */
export function loadOrCreateSealSigningKey(path: string): string {
  return loadOrCreateDevSecrets(path).sealSigningKey;
}
