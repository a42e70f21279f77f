import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright-core';
import { freePort } from '@fleet/testing';
// The admin API's harness (the API on a fresh database) and its local OpenID Connect provider.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startHarness, type Harness } from '../../admin-api/test/harness';
import { launchChromium, newContext, screenshot } from './browser';

/** The provider finishes every interaction as the account last posted to it (apps/admin-api/test/oidc-provider.mjs). */
async function startProvider(
  redirect: string,
): Promise<{ child: ChildProcess; issuer: string; clientId: string; clientSecret: string }> {
  const child = spawn(
    process.execPath,
    [join(__dirname, '../../admin-api/test/oidc-provider.mjs'), redirect],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return { child, ...(JSON.parse(line) as { issuer: string; clientId: string; clientSecret: string }) };
}

describe("signing in to the console through the organisation's OpenID Connect provider", () => {
  let h: Harness;
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    provider = await startProvider(`${base}/api/v1/auth/oidc/callback`);
    [h, browser] = await Promise.all([
      startHarness({
        HTTP_PORT: String(port),
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_REDIRECT_URL: `${base}/api/v1/auth/oidc/callback`,
        OIDC_SUCCESS_REDIRECT: `${base}/`,
        OIDC_ALLOW_HTTP: 'true',
      }),
      launchChromium(),
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.stop();
    provider?.child.kill('SIGTERM');
  });

  it('offers the provider on the sign-in page and comes back signed in as the linked operator', async () => {
    await h.person('operator', { email: 'olga@example.com' });
    await fetch(`${provider.issuer}/test/account`, {
      method: 'POST',
      body: JSON.stringify({
        sub: 'olga-at-idp',
        email: 'olga@example.com',
        email_verified: true,
        name: 'Olga',
      }),
    });
    const context = await newContext(browser, h.baseUrl);
    const page = await context.newPage();
    await page.goto('/');
    const sso = page.getByTestId('oidc-sign-in');
    await sso.waitFor();
    await screenshot(page, '00-sign-in');
    await sso.click();
    // Through the provider and back: the API sets the session cookie and sends the browser to the console.
    await page.locator('[data-page="overview"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('.whoami').textContent()).toContain('olga@example.com');
    await context.close();
  }, 30_000);
});
