// A local OpenID Connect provider for the sign-in test (oidc-provider, run by plain Node: it is an ES module).
// Interactions finish at once as whichever account POST /test/account last named, so a test drives the real
// authorization code flow (PKCE, state, nonce, ID token) without a login page.
// Usage: node oidc-provider.mjs <redirect_uri>   → prints {"issuer": "...", "clientId": "...", "clientSecret": "..."}
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const redirectUri = process.argv[2];
const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const client = { clientId: 'fleet-admin', clientSecret: 'test-client-secret-0123456789' };
let account = { sub: 'nobody', email: 'nobody@example.com', email_verified: true, name: 'Nobody' };

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

const provider = new Provider(issuer, {
  jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig', kid: 'test' }] },
  clients: [
    {
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  conformIdTokenClaims: false,
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ ...account, sub }) }),
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  cookies: { keys: ['oidc-test-cookie-key'] },
});
provider.proxy = false;
const callback = provider.callback();

server.on('request', async (req, res) => {
  try {
    if (req.method === 'POST' && req.url === '/test/account') {
      let body = '';
      for await (const chunk of req) body += chunk;
      account = JSON.parse(body);
      res.writeHead(204).end();
      return;
    }
    if (req.url.startsWith('/interaction/')) {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: account.sub, clientId: details.params.client_id });
      grant.addOIDCScope(details.params.scope);
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: account.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    callback(req, res);
  } catch (err) {
    res.writeHead(500).end(String(err));
  }
});

process.stdout.write(JSON.stringify({ issuer, ...client }) + '\n');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
