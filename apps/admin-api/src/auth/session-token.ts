import { createHash, randomBytes } from 'node:crypto';

// A session token reads `fs_<secret>`; only its sha256 is stored (the `session` row), like an API key's secret.
// 256 random bits make a fast hash enough.
const TOKEN_PATTERN = /^fs_[A-Za-z0-9_-]{43}$/;

export const SESSION_COOKIE = 'fleet_session';

export function newSessionToken(): { token: string; hash: string } {
  const token = `fs_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashSessionToken(token) };
}

export function isSessionToken(text: string): boolean {
  return TOKEN_PATTERN.test(text);
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The value of one cookie from a Cookie header (browsers' EventSource cannot send Authorization). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

export function sessionCookie(token: string, maxAgeS: number, secure: boolean): string {
  // SameSite=Strict: a cookie-authenticated request never comes from another site's page (no CSRF).
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeS}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
