import { z } from 'zod';
import { err, ok, type ProtocolError, type Result } from '../result';

// listenai.md / seed 002: the device opens ws[s]://<host>/v1/interaction and opts into MCP with `param`
// carrying {"mcp": true}. The seed gives `param` as the connection's parameter; it arrives as a query
// parameter holding JSON (URL-encoded, or base64 of the JSON as some WebSocket stacks send it).
export const LISTENAI_LINK_PATH = '/v1/interaction';

const linkParamSchema = z.looseObject({ mcp: z.boolean().optional() });
export type LinkParam = z.infer<typeof linkParamSchema>;

export type LinkRequestErrorKind =
  'wrong_path' | 'no_param' | 'unreadable_param' | 'no_mcp_opt_in' | 'no_token';

export interface LinkRequest {
  param: LinkParam;
  /** The platform's device token: `Authorization: Bearer <token>`, else the `token` query parameter. */
  token: string;
  /** Where the token came from (a query token ends up in proxies' access logs; the header does not). */
  tokenFrom: 'header' | 'query';
}

/** The parts of an HTTP upgrade request the link reads. */
export interface LinkUpgrade {
  /** The request target as sent (`/v1/interaction?param=...`). */
  url: string;
  authorization: string | undefined;
}

/** An upgrade request to what the link needs from it, or the reason to refuse it. Never throws. */
export function readLinkRequest(
  upgrade: LinkUpgrade,
): Result<LinkRequest, ProtocolError<LinkRequestErrorKind>> {
  let url: URL;
  try {
    url = new URL(upgrade.url, 'ws://link.invalid');
  } catch {
    return err({ kind: 'wrong_path', message: 'the request target is not a URL' });
  }
  if (url.pathname !== LISTENAI_LINK_PATH && url.pathname !== `${LISTENAI_LINK_PATH}/`) {
    return err({ kind: 'wrong_path', message: `the link is at ${LISTENAI_LINK_PATH}` });
  }
  const text = url.searchParams.get('param');
  if (text === null) return err({ kind: 'no_param', message: 'no param: MCP needs param {"mcp":true}' });
  const param = parseParam(text);
  if (!param) return err({ kind: 'unreadable_param', message: 'param is not a JSON object' });
  if (param.mcp !== true) {
    return err({ kind: 'no_mcp_opt_in', message: 'param does not carry {"mcp":true}: no MCP opt-in' });
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(upgrade.authorization ?? '')?.[1];
  const query = url.searchParams.get('token') ?? undefined;
  const token = bearer ?? query;
  if (!token) return err({ kind: 'no_token', message: 'no device token (Authorization: Bearer, or token=)' });
  return ok({ param, token, tokenFrom: bearer ? 'header' : 'query' });
}

function parseParam(text: string): LinkParam | undefined {
  const candidates = [text.trim()];
  if (!text.trim().startsWith('{')) candidates.push(Buffer.from(text, 'base64').toString('utf8'));
  for (const candidate of candidates) {
    try {
      const parsed = linkParamSchema.safeParse(JSON.parse(candidate));
      if (parsed.success) return parsed.data;
    } catch {
      // try the next reading
    }
  }
  return undefined;
}

/** The request target a device dials (for the simulator and tests): param as URL-encoded JSON. */
export function linkRequestTarget(param: LinkParam = { mcp: true }, token?: string): string {
  const query = new URLSearchParams({ param: JSON.stringify(param) });
  if (token !== undefined) query.set('token', token);
  return `${LISTENAI_LINK_PATH}?${query.toString()}`;
}
