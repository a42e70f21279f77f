import { join } from 'node:path';
import { freePort } from '@fleet/testing';
import { startHarness, type Harness, type Json } from '../../test/harness';
import { startScriptServer, type ScriptServer } from '../../test/script-server';

/** Cookies per host, enough to follow a browser's redirects through the provider and back. */
class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  async get(url: string): Promise<Response> {
    const host = new URL(url).host;
    const cookies = [...(this.jar.get(host) ?? new Map<string, string>())]
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookies ? { cookie: cookies } : {} });
    const jar = this.jar.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
    this.jar.set(host, jar);
    return response;
  }

  /** Follows redirects until one leads to `stopAt` (not followed) or a page answers. */
  async follow(url: string, stopAt: string): Promise<Response> {
    let response = await this.get(url);
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
      const next = new URL(response.headers.get('location')!, response.url || url).href;
      response = await this.get(next);
      if (next.startsWith(stopAt)) return response;
    }
    return response;
  }
}

describe('OpenID Connect sign-in', () => {
  let provider: ScriptServer<{ issuer: string; clientId: string; clientSecret: string }>;
  let issuer: string;
  let h: Harness;

  beforeAll(async () => {
    const port = await freePort();
    const redirect = `http://127.0.0.1:${port}/api/v1/auth/oidc/callback`;
    provider = await startScriptServer(join(__dirname, '../../test/oidc-provider.mjs'), [redirect]);
    issuer = provider.started.issuer;
    h = await startHarness({
      HTTP_PORT: String(port),
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: provider.started.clientId,
      OIDC_CLIENT_SECRET: provider.started.clientSecret,
      OIDC_REDIRECT_URL: redirect,
      OIDC_ALLOW_HTTP: 'true',
    });
  });
  afterAll(async () => {
    await h.stop();
    await provider.stop();
  });

  const signInAs = async (account: { sub: string; email: string; name: string }) => {
    await fetch(`${issuer}/test/account`, {
      method: 'POST',
      body: JSON.stringify({ ...account, email_verified: true }),
    });
    const browser = new Browser();
    const callback = await browser.follow(
      `${h.baseUrl}/api/v1/auth/oidc/login`,
      `${h.baseUrl}/api/v1/auth/oidc/callback`,
    );
    return { status: callback.status, body: (await callback.json()) as Json };
  };

  it('signs an operator in through the provider, linking the identity to the account with that email', async () => {
    const alice = await h.person('operator', { email: 'alice@example.com' });
    const first = await signInAs({ sub: 'alice-at-idp', email: 'alice@example.com', name: 'Alice' });
    expect(first.status).toBe(200);
    expect(first.body.operator).toMatchObject({ id: alice.operatorId, role: 'operator' });
    const me = await h.request('GET', '/api/v1/auth/me', { key: first.body.token });
    expect(me.body).toMatchObject({ id: alice.operatorId, via: 'session' });
    const linked = await h.pool.query('SELECT oidc_issuer, oidc_subject FROM operator WHERE id = $1', [
      alice.operatorId,
    ]);
    expect(linked.rows[0]).toEqual({ oidc_issuer: issuer, oidc_subject: 'alice-at-idp' });
  });

  it('refuses a person the platform has no account for', async () => {
    const stranger = await signInAs({ sub: 'mallory', email: 'mallory@example.com', name: 'Mallory' });
    expect(stranger.status).toBe(403);
    expect(stranger.body.code).toBe('no_account');
  });

  it('refuses a callback that this browser did not start', async () => {
    const r = await fetch(`${h.baseUrl}/api/v1/auth/oidc/callback?code=x&state=forged`);
    expect(r.status).toBe(400);
    expect(((await r.json()) as { code: string }).code).toBe('oidc_state_mismatch');
  });
});
