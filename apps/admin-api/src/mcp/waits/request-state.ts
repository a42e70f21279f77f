import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

// MCP 2026-07-28 (basic/patterns/mrtr): a server's `requestState` comes back from the client, so it is
// attacker-controlled. Ours is a signed claim set: the call it continues, the hash of the exact request
// (device, tool, arguments), the agent it was given to, an expiry, and a nonce the server consumes once.

const claimsSchema = z.strictObject({
  v: z.literal(1),
  callId: z.uuid(),
  argumentsHash: z.string().regex(/^[0-9a-f]{64}$/),
  agentId: z.string().min(1).max(300),
  expiresAt: z.int().positive(),
  nonce: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
});
export type RequestStateClaims = z.infer<typeof claimsSchema>;

export type RequestStateCheck =
  | { ok: true; claims: RequestStateClaims }
  | { ok: false; problem: 'malformed' | 'forged' | 'expired' | 'another_agent' | 'another_request' };

export function mintRequestState(
  key: Buffer,
  claims: Omit<RequestStateClaims, 'v' | 'nonce'>,
): { state: string; claims: RequestStateClaims } {
  const full: RequestStateClaims = { v: 1, ...claims, nonce: randomBytes(16).toString('base64url') };
  const body = Buffer.from(JSON.stringify(full)).toString('base64url');
  return { state: `${body}.${sign(key, body)}`, claims: full };
}

/**
 * Whether a state is one this server signed, still fresh, given to this agent, for this very request. Consuming
 * it (once) is the caller's next step: a valid signature says nothing about whether it was used before.
 */
export function checkRequestState(
  key: Buffer,
  state: string,
  expected: { agentId: string; argumentsHash: string; now: number },
): RequestStateCheck {
  const [body, mac, ...rest] = state.split('.');
  if (!body || !mac || rest.length > 0 || state.length > 2048) return { ok: false, problem: 'malformed' };
  const want = Buffer.from(sign(key, body));
  const got = Buffer.from(mac);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return { ok: false, problem: 'forged' };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  const claims = claimsSchema.safeParse(json);
  if (!claims.success) return { ok: false, problem: 'malformed' };
  if (claims.data.expiresAt <= expected.now) return { ok: false, problem: 'expired' };
  if (claims.data.agentId !== expected.agentId) return { ok: false, problem: 'another_agent' };
  if (claims.data.argumentsHash !== expected.argumentsHash) return { ok: false, problem: 'another_request' };
  return { ok: true, claims: claims.data };
}

function sign(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(`mcp-request-state:${body}`).digest('base64url');
}
