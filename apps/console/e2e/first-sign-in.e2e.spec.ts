import type { Browser, Page } from 'playwright-core';
// The API on a fresh database (the harness clones an empty, migrated one), and the launcher's own first start
// and banner: what `npm start` prints is what the browser follows. Shared code, reused rather than copied.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startHarness, type Harness } from '../../admin-api/test/harness';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { banner } from '../../../tools/launcher/src/banner';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { bootstrapFirstAdmin } from '../../../tools/launcher/src/first-start';
import { launchChromium, newContext, screenshot } from './browser';

const PASSWORD = 'first-admin-password-1';

describe('the first minutes in the console', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let link: string;

  beforeAll(async () => {
    [h, browser] = await Promise.all([startHarness(), launchChromium()]);
    const first = await bootstrapFirstAdmin(h.db.url);
    expect(first).toBeDefined();
    const port = Number(new URL(h.baseUrl).port);
    const printed = banner([{ name: 'admin-api', ports: { http: port } }], 1000, first);
    link = printed.match(/http:\/\/127\.0\.0\.1:\d+\/welcome#token=[A-Za-z0-9_-]+/)![0];
    page = await (await newContext(browser, h.baseUrl)).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('signs the first admin in through the printed link, which sets their password', async () => {
    await page.goto(link);
    await page.locator('[data-page="welcome"]').waitFor();
    await screenshot(page, '00-welcome');
    await page.getByLabel('New password (at least 12 characters)').fill(PASSWORD);
    await page.getByLabel('The same password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.locator('[data-page="overview"]').waitFor();
    expect(new URL(page.url()).hash).toBe(''); // the spent token is gone from the address bar
    // The password works from now on, like any other.
    const login = await h.request('POST', '/api/v1/auth/login', {
      body: { email: 'admin@localhost', password: PASSWORD },
    });
    expect(login.status).toBe(200);
    expect(login.body.operator).toMatchObject({ email: 'admin@localhost', role: 'admin' });
  });

  it('works once: the same link again is refused, saying nothing of why', async () => {
    const token = new URL(link).hash.replace('#token=', '');
    const again = await h.request('POST', '/api/v1/auth/sign-in-link', {
      body: { token, password: 'another-password-123' },
    });
    expect(again).toMatchObject({ status: 401, body: { code: 'invalid_sign_in_link' } });
    const { rows } = await h.pool.query('SELECT token_hash, used_at FROM sign_in_link');
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(token); // stored hashed
    expect(rows[0].used_at).not.toBeNull();
  });
});
