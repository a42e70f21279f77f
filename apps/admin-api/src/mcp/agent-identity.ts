import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { Actor } from '../http/actor';

/** Who an outside agent is, as the decision evidence records it (DESIGN §1: "who asked … external agent"). */
export interface AgentIdentity {
  /** Stable per credential: the API key, the OAuth client, or the person when a session token was presented. */
  agentId: string;
  /** Lands in the decision row as `requestedBy.agent`. */
  context: {
    protocol: 'mcp';
    /** What the client said it is in `initialize` (its claim: the credential is what is proven). */
    client: { name: string; version: string };
    /** The legacy session it came in (empty: a stateless request of MCP 2026-07-28). */
    mcpSessionId: string;
    /** The protocol revision the request spoke. */
    protocolVersion?: string;
    operatorId: string;
    apiKeyId?: string;
    oauthClientId?: string;
    via: Actor['via'];
  };
}

const MAX = 200; // a client names itself; the name must not grow an evidence row without bound

export function agentIdentity(
  actor: Actor,
  client: Implementation | undefined,
  mcpSessionId: string,
  protocolVersion?: string,
): AgentIdentity {
  return {
    agentId: agentIdOf(actor),
    context: {
      protocol: 'mcp',
      client: {
        name: (client?.name ?? 'unknown').slice(0, MAX),
        version: (client?.version ?? 'unknown').slice(0, MAX),
      },
      mcpSessionId,
      ...(protocolVersion ? { protocolVersion } : {}),
      operatorId: actor.operatorId,
      ...(actor.apiKeyId ? { apiKeyId: actor.apiKeyId } : {}),
      ...(actor.oauthClientId ? { oauthClientId: actor.oauthClientId } : {}),
      via: actor.via,
    },
  };
}

/** The agent a credential is: its API key, its OAuth client, or (a session token) the person. */
export function agentIdOf(actor: Actor): string {
  if (actor.oauthClientId) return `oauth_client:${actor.oauthClientId}`.slice(0, 200);
  return actor.apiKeyId ? `api_key:${actor.apiKeyId}` : `operator:${actor.operatorId}`;
}
