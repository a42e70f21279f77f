import { generateKeyPairSync } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { decodeJwt, SignJWT } from 'jose';
import type { Fleet } from '@fleet/device-sim';
import { freePort, waitFor } from '@fleet/testing';
import { startAuthorizationServer, type AuthorizationServer } from '../../test/authorization-server';
import type { Json, Person } from '../../test/harness';
import { connectMcp, INITIALIZE, MCP_ACCEPT } from '../../test/mcp-clients';
import { startPlatform, type Platform } from '../../test/platform';

const OTHER_RESOURCE = 'https://other.example.com/api';

// /mcp as an OAuth 2.1 resource server, against a real authorization server (oidc-provider) issuing JWT access
// tokens by the client credentials grant for a resource named by its indicator (RFC 8707): the metadata an agent
// discovers (RFC 9728), the challenge of a 401, a listed machine agent calling through the official SDK client and
// named in the decision evidence, and every token that must not pass: another audience, an unlisted client, an
// expired one, one signed by another key.
describe('/mcp with OAuth access tokens', () => {
  let as: AuthorizationServer;
  let p: Platform;
  let fleet: Fleet;
  let owner: Person;
  let resource: string;
  const clients: Client[] = [];

  async function connect(token: string): Promise<Client> {
    const client = await connectMcp(resource, token, { name: 'oauth-agent' });
    clients.push(client);
    return client;
  }

  /** An initialize by hand, to read the status, the challenge and the JSON-RPC error as they are sent. */
  async function initialize(token?: string) {
    const answer = await p.h.request('POST', '/mcp', {
      ...(token ? { key: token } : {}),
      body: INITIALIZE,
      headers: MCP_ACCEPT,
    });
    const challenge = answer.headers['www-authenticate'];
    return {
      status: answer.status,
      challenge: typeof challenge === 'string' ? challenge : null,
      body: answer.body,
    };
  }

  const refusals = async (reason: string): Promise<number> => {
    const metrics = (await fetch(`${p.h.baseUrl}/metrics`).then((r) => r.text())).split('\n');
    const line = metrics.find(
      (l) => l.startsWith('admin_api_mcp_token_refusals_total{') && l.includes(`reason="${reason}"`),
    );
    return line ? Number(line.split(' ').at(-1)) : 0;
  };

  beforeAll(async () => {
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    as = await startAuthorizationServer(resource, OTHER_RESOURCE);
    const agentFor = (role: string) => ({ operator: 'agents-owner@example.com', role });
    p = await startPlatform({
      HTTP_PORT: String(port),
      MCP_RESOURCE_URL: resource,
      MCP_OAUTH_ISSUER: as.issuer,
      MCP_OAUTH_CLIENTS: JSON.stringify({
        [as.clients.agent.id]: agentFor('operator'),
        [as.clients.viewer.id]: agentFor('viewer'),
        [as.clients.shortLived.id]: agentFor('operator'),
      }),
    });
    await p.startOrchestrator('oauth-a');
    owner = await p.h.person('operator', { email: 'agents-owner@example.com' });
    fleet = await p.fleet({ count: 1, macPrefix: '02:3c:40' });
  }, 90_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await p?.close();
    await as?.stop();
  });

  it('publishes its protected resource metadata, naming itself and its authorization server, at both places', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const answer = await fetch(`${p.h.baseUrl}${path}`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({
        resource,
        authorization_servers: [as.issuer],
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('answers a request without credentials 401 with a challenge pointing at that metadata', async () => {
    const bare = await initialize();
    expect(bare.status).toBe(401);
    expect(bare.challenge).toMatch(/^Bearer /);
    const pointed = /resource_metadata="([^"]+)"/.exec(bare.challenge!)?.[1];
    expect(pointed).toBe(`${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await (await fetch(pointed!)).json()).toMatchObject({ resource });
    expect(bare.challenge).not.toMatch(/error=/); // no token was sent, so none was wrong (RFC 6750 §3.1)
  });

  it('lets a listed machine agent call through the SDK client, named by its OAuth client in the decision evidence', async () => {
    const token = await as.token('agent', resource);
    expect(decodeJwt(token)).toMatchObject({ aud: resource, client_id: as.clients.agent.id });
    const agent = await connect(token);
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name)).toContain('call_device_tool');
    const result = (await agent.callTool({
      name: 'call_device_tool',
      arguments: {
        deviceId: fleet.devices[0]!.mac,
        tool: 'self.audio_speaker.set_volume',
        arguments: { volume: 23 },
      },
    })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ verdict: 'verified' });
    expect(fleet.devices[0]!.volume).toBe(23);

    const { rows } = await p.h.owner.query(
      `SELECT c.agent_id, c.operator_id, e.payload->'requestedBy' AS "requestedBy"
         FROM call c JOIN evidence e ON e.call_id = c.id AND e.stage = 'decision' WHERE c.id = $1`,
      [(result.structuredContent as Json).callId],
    );
    expect(rows[0]).toMatchObject({ agent_id: 'oauth_client:fleet-agent', operator_id: owner.operatorId });
    expect(rows[0].requestedBy.agent).toMatchObject({
      protocol: 'mcp',
      oauthClientId: 'fleet-agent',
      via: 'oauth',
      client: { name: 'oauth-agent', version: '1' },
    });
  });

  it('keeps an agent’s session its own: another client acting for the same person cannot use it', async () => {
    const agent = clients[0]!;
    const sessionId = (agent.transport as StreamableHTTPClientTransport).sessionId!;
    const reader = await as.token('viewer', resource);
    const borrowed = await p.h.request('POST', '/mcp', {
      key: reader,
      headers: { ...MCP_ACCEPT, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      body: { jsonrpc: '2.0', id: 7, method: 'tools/list' },
    });
    expect(borrowed.status).toBe(403);
    expect(borrowed.body).toMatchObject({
      error: { message: expect.stringMatching(/^session_of_another: /) },
    });
    await expect(agent.listTools()).resolves.toMatchObject({ tools: expect.any(Array) });
  });

  it('refuses with 401 a token issued for another resource by the same authorization server', async () => {
    const before = await refusals('wrong_audience');
    const refused = await initialize(await as.token('agent', OTHER_RESOURCE));
    expect(refused.status).toBe(401);
    expect(refused.challenge).toMatch(/error="invalid_token"/);
    expect(refused.challenge).toMatch(/resource_metadata="/);
    expect(refused.body.error.message).toMatch(/not issued for this resource/);
    expect(await refusals('wrong_audience')).toBe(before + 1);
  });

  it('refuses with 403 a valid token of a client the configuration names as no agent', async () => {
    const before = await refusals('unknown_client');
    const refused = await initialize(await as.token('stranger', resource));
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/^unknown_client: /);
    expect(await refusals('unknown_client')).toBe(before + 1);
    await expect(connect(await as.token('stranger', resource))).rejects.toMatchObject({ code: 403 });
  });

  it('refuses with 401 an access token past its expiry', async () => {
    const token = await as.token('shortLived', resource);
    const { exp } = decodeJwt(token);
    await waitFor(() => Date.now() / 1000 >= exp! + 1, { what: 'the token to expire', timeoutMs: 5_000 });
    const refused = await initialize(token);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toMatch(/error="invalid_token"/);
    expect(refused.body.error.message).toMatch(/expired/);
  });

  it('refuses with 401 a token with every right claim but signed by a key that is not the issuer’s', async () => {
    const before = await refusals('invalid');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = await new SignJWT({ client_id: as.clients.agent.id, scope: 'fleet' })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'as-test' })
      .setIssuer(as.issuer)
      .setAudience(resource)
      .setSubject(as.clients.agent.id)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const refused = await initialize(forged);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toMatch(/error="invalid_token"/);
    expect(await refusals('invalid')).toBe(before + 1);
  });
});
