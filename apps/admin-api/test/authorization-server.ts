import { join } from 'node:path';
import { startScriptServer } from './script-server';

type ClientName = 'agent' | 'viewer' | 'stranger' | 'shortLived';

export interface AuthorizationServer {
  issuer: string;
  clients: Record<ClientName, { id: string; secret: string }>;
  /** An access token by the client credentials grant, for `resource` (RFC 8707). */
  token(client: ClientName, resource: string): Promise<string>;
  stop(): Promise<void>;
}

/** oidc-provider as the authorization server of /mcp (test/oauth-authorization-server.mjs). */
export async function startAuthorizationServer(
  mcpResource: string,
  otherResource: string,
): Promise<AuthorizationServer> {
  const server = await startScriptServer<Pick<AuthorizationServer, 'issuer' | 'clients'>>(
    join(__dirname, 'oauth-authorization-server.mjs'),
    [mcpResource, otherResource],
  );
  const { issuer, clients } = server.started;
  return {
    issuer,
    clients,
    async token(name, resource) {
      const client = clients[name];
      const answer = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'fleet' }),
      });
      const body = (await answer.json()) as { access_token?: string; error?: string };
      if (!body.access_token) throw new Error(`no token for ${client.id}: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    stop: () => server.stop(),
  };
}
