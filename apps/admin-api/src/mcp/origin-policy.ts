/**
 * Which browser origins may reach `/mcp`. MCP's Streamable HTTP transport (2025-11-25, "Security Warning"): a
 * server MUST validate `Origin` and answer 403 to a present, invalid one, against DNS rebinding: a page of
 * evil.example whose name is made to resolve to this API sends `Origin: http://evil.example`, and its `Host`
 * names the attacker too, so only a list of origins known in advance tells it apart. A request without `Origin`
 * comes from no browser page (an agent's own HTTP client) and is unaffected.
 */
export interface OriginPattern {
  protocol: 'http:' | 'https:';
  hostname: string;
  /** `''` for the scheme's default port, or `*` for any port. */
  port: string;
}

/** The loopback forms, any port: a local MCP client's page (an inspector on localhost:6274, the console's Vite). */
export const LOOPBACK_ORIGINS = [
  'http://localhost:*',
  'http://127.0.0.1:*',
  'http://[::1]:*',
  'https://localhost:*',
  'https://127.0.0.1:*',
  'https://[::1]:*',
];

/** `scheme://host[:port]`, the port possibly `*`; anything else (a path, credentials, another scheme) throws. */
export function parseOriginPattern(text: string): OriginPattern {
  const anyPort = text.endsWith(':*');
  const url = tryUrl(anyPort ? text.slice(0, -2) : text);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`${text}: expected an origin, scheme://host[:port] (http or https; the port may be *)`);
  }
  if (url.origin !== (anyPort ? text.slice(0, -2) : text).toLowerCase().replace(/\/$/, '')) {
    throw new Error(
      `${text}: an origin has no path, query or credentials (as a browser sends it: ${url.origin})`,
    );
  }
  return { protocol: url.protocol, hostname: url.hostname, port: anyPort ? '*' : url.port };
}

/** The origin of a configured URL (where the console is served), as a pattern. */
export function originOfUrl(text: string): OriginPattern | undefined {
  const url = tryUrl(text);
  return url ? parseOriginPattern(url.origin) : undefined;
}

/** Whether an `Origin` header's value is one of the patterns; `null` and anything malformed are not. */
export function originAllowed(origin: string, patterns: readonly OriginPattern[]): boolean {
  const url = tryUrl(origin);
  if (!url || url.origin !== origin.toLowerCase()) return false;
  return patterns.some(
    (p) =>
      p.protocol === url.protocol && p.hostname === url.hostname && (p.port === '*' || p.port === url.port),
  );
}

function tryUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
