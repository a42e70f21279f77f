// A local OAuth 2.1 authorization server for /mcp's resource-server tests (oidc-provider, run by plain Node: it
// is an ES module). Machine agents take access tokens with the client credentials grant, for one resource named
// by its indicator (RFC 8707); a token for /mcp is a JWT (RFC 9068) whose audience is the resource. A second
// resource exists so a token for something else can be had from the same issuer.
// Usage: node oauth-authorization-server.mjs <resource URL of /mcp> <another resource URL>
//   → prints {"issuer": "...", "clients": {"<name>": {"id": "...", "secret": "..."}}}
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const [mcpResource, otherResource] = process.argv.slice(2);
const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const secret = (name) => `${name}-secret-0123456789abcdef`;
// `agent` and `shortLived` are the ones the API's configuration names; `stranger` is a client it does not know.
const clients = {
  agent: { id: 'fleet-agent', secret: secret('fleet-agent') },
  viewer: { id: 'fleet-reader', secret: secret('fleet-reader') },
  stranger: { id: 'stranger-agent', secret: secret('stranger-agent') },
  shortLived: { id: 'short-lived-agent', secret: secret('short-lived-agent') },
};

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

const provider = new Provider(issuer, {
  jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig', kid: 'as-test' }] },
  clients: Object.values(clients).map((c) => ({
    client_id: c.id,
    client_secret: c.secret,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
  })),
  scopes: ['fleet'],
  features: {
    clientCredentials: { enabled: true },
    devInteractions: { enabled: false },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined,
      getResourceServerInfo: (_ctx, resource) => {
        if (resource !== mcpResource && resource !== otherResource) throw new Provider.errors.InvalidTarget();
        return {
          audience: resource,
          accessTokenFormat: 'jwt',
          scope: 'fleet',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
  // One second for the short-lived client: its token expires while the test watches.
  ttl: { ClientCredentials: (_ctx, _token, client) => (client.clientId === clients.shortLived.id ? 1 : 600) },
});
provider.proxy = false;
server.on('request', provider.callback());

process.stdout.write(JSON.stringify({ issuer, clients }) + '\n');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
