import { startHarness, type Harness, type Person } from '../../test/harness';
import { INITIALIZE, MCP_ACCEPT } from '../../test/mcp-clients';

// MCP's Streamable HTTP transport: a present, invalid Origin is refused with 403 before anything else (DNS
// rebinding protection); no Origin (an agent's own HTTP client) and an allowed one go on as before.
describe('/mcp and the Origin header', () => {
  let h: Harness;
  let operator: Person;

  beforeAll(async () => {
    h = await startHarness({ MCP_ALLOWED_ORIGINS: 'http://localhost:*,https://console.example.com' });
    operator = await h.person('operator');
  });
  afterAll(() => h?.stop());

  const open = (origin?: string, key: string | undefined = operator.key) =>
    h.request('POST', '/mcp', {
      ...(key ? { key } : {}),
      body: INITIALIZE,
      headers: { ...MCP_ACCEPT, ...(origin ? { origin } : {}) },
    });

  it('refuses a foreign Origin with 403 before authentication, and counts it', async () => {
    for (const origin of ['http://evil.example', 'null', 'https://console.example.com.evil.example']) {
      const res = await open(origin);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        error: { message: expect.stringMatching(/^origin_not_allowed/) },
      });
    }
    expect((await open('http://evil.example', undefined)).status).toBe(403); // not 401: the key is never read
    const metrics = await h.request('GET', '/metrics');
    expect(metrics.text).toMatch(/^admin_api_mcp_origin_refusals_total(\{[^}]*\})? 4$/m);
  });

  it('opens a session without an Origin, as an agent does', async () => {
    const res = await open();
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toEqual(expect.any(String));
  });

  it('opens a session from an allowed Origin', async () => {
    for (const origin of ['http://localhost:6274', 'https://console.example.com']) {
      const res = await open(origin);
      expect(res.status).toBe(200);
      expect(res.headers['mcp-session-id']).toEqual(expect.any(String));
    }
  });
});
