import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// An API key reads `fk_<prefix>_<secret>`: the prefix finds its row, only the secret's hash is stored.
// The secret has 256 bits of entropy, so a fast hash is enough (a slow one would only slow every request).
const KEY_PATTERN = /^fk_([a-z0-9]{10})_([A-Za-z0-9_-]{43})$/;

export interface NewApiKey {
  /** Shown to its owner once, never stored. */
  plaintext: string;
  prefix: string;
  secretHash: string;
}

export function generateApiKey(): NewApiKey {
  const prefix = randomBytes(8).toString('hex').slice(0, 10);
  const secret = randomBytes(32).toString('base64url');
  return { plaintext: `fk_${prefix}_${secret}`, prefix, secretHash: hashSecret(secret) };
}

export function parseApiKey(plaintext: string): { prefix: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(plaintext);
  return match ? { prefix: match[1]!, secret: match[2]! } : undefined;
}

export function verifyApiKeySecret(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
