import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { Actor } from '../http/actor';

/** Who an outside agent is, as the decision evidence records it (DESIGN §1: "who asked … external agent"). */
export interface AgentIdentity {
  /** Stable per credential: the API key, or the person when a session token was presented. */
  agentId: string;
  /** Lands in the decision row as `requestedBy.agent`. */
  context: {
    protocol: 'mcp';
    /** What the client said it is in `initialize` (its claim: the credential is what is proven). */
    client: { name: string; version: string };
    mcpSessionId: string;
    operatorId: string;
    apiKeyId?: string;
    via: Actor['via'];
  };
}

const MAX = 200; // a client names itself; the name must not grow an evidence row without bound

export function agentIdentity(
  actor: Actor,
  client: Implementation | undefined,
  mcpSessionId: string,
): AgentIdentity {
  return {
    agentId: actor.apiKeyId ? `api_key:${actor.apiKeyId}` : `operator:${actor.operatorId}`,
    context: {
      protocol: 'mcp',
      client: {
        name: (client?.name ?? 'unknown').slice(0, MAX),
        version: (client?.version ?? 'unknown').slice(0, MAX),
      },
      mcpSessionId,
      operatorId: actor.operatorId,
      ...(actor.apiKeyId ? { apiKeyId: actor.apiKeyId } : {}),
      via: actor.via,
    },
  };
}
