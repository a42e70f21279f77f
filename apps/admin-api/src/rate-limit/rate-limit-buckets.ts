import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { readCookie, SESSION_COOKIE } from '../auth/session-token';

/**
 * The bucket of the credential a request presents (a bearer API key or session token, or the session cookie), or
 * undefined for none. Counted before anyone checks the credential, so it is the whole credential's hash, not its
 * prefix: a key's prefix is no secret, and whoever knew one could otherwise spend its owner's budget with forged
 * keys. Salted apart from the stored hashes, so a bucket name looks up nothing. Forged credentials each get a
 * bucket of their own, and the address's limit bounds them.
 */
export function credentialBucket(headers: IncomingHttpHeaders): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  const credential = bearer ?? readCookie(headers.cookie, SESSION_COOKIE);
  if (!credential) return undefined;
  return createHash('sha256').update(`rate-limit:${credential}`).digest('base64url').slice(0, 22);
}

/**
 * The bucket of a client address: an IPv4 address as it is, an IPv6 address by its /64 (one host is given a
 * whole /64 and can pick any address in it), an IPv4-mapped IPv6 address as the IPv4 address it maps.
 */
export function addressBucket(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return mapped;
  if (isIP(ip) !== 6) return ip;
  return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded, zone dropped, each in lower-case hex. */
function ipv6Groups(ip: string): string[] {
  const [head = '', tail] = ip.split('%')[0]!.toLowerCase().split('::');
  const split = (part: string | undefined) => (part ? part.split(':') : []);
  const left = split(head);
  const right = split(tail);
  // An embedded IPv4 tail (`::1.2.3.4`) is two groups.
  const last = right.length > 0 ? right : left;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(last[last.length - 1] ?? '');
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    last.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16).toString(16));
}
