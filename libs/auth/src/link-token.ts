import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// DESIGN §3 "The ListenAI link": a device token reads `lt_<prefix>_<secret>`, like an API key: the prefix finds
// its row, only the secret's hash is stored, and 256 bits of entropy make a fast hash enough.
const TOKEN_PATTERN = /^lt_([a-z0-9]{10})_([A-Za-z0-9_-]{43})$/;

export interface NewLinkToken {
  /** Shown to the operator once, never stored. */
  plaintext: string;
  prefix: string;
  secretHash: string;
}

export function generateLinkToken(): NewLinkToken {
  const prefix = randomBytes(8).toString('hex').slice(0, 10);
  const secret = randomBytes(32).toString('base64url');
  return { plaintext: `lt_${prefix}_${secret}`, prefix, secretHash: hashSecret(secret) };
}

export function parseLinkToken(plaintext: string): { prefix: string; secret: string } | undefined {
  const match = TOKEN_PATTERN.exec(plaintext);
  return match ? { prefix: match[1]!, secret: match[2]! } : undefined;
}

export function verifyLinkTokenSecret(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
