import type { Browser, Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startHarness, type Harness, type Person } from '../../admin-api/test/harness';
import { launchChromium, newContext, screenshot } from './browser';

const PASSWORD = 'keys-admin-password-1';

// An admin makes an agent's key bounded to a device group in the console: the form offers the groups, the key is
// shown once, and the list says what each key reaches.
describe('API keys in the console', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let admin: Person;
  let agentOwner: Person;

  beforeAll(async () => {
    [h, browser] = await Promise.all([startHarness(), launchChromium()]);
    admin = await h.person('admin', { email: 'root@example.com', password: PASSWORD });
    agentOwner = await h.person('operator', { email: 'ops@example.com' });
    for (const name of ['kitchen', 'lobby']) {
      await h.request('POST', '/api/v1/groups', { key: admin.key, body: { name, timeZone: 'UTC' } });
    }
    page = await (await newContext(browser, h.baseUrl)).newPage();
    await page.goto('/');
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('[data-page="overview"]').waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('creates a key bounded to a chosen group, shows it once, and lists each key with its reach', async () => {
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await page.locator('[data-page="api-keys"]').waitFor();
    const form = page.getByTestId('new-api-key');
    await form.getByLabel('Owner').selectOption({ label: `${agentOwner.email} (operator)` });
    await form.getByLabel('Name').fill('kitchen agent');
    await form.getByLabel('Role').selectOption('operator');
    await form.getByTestId('key-groups').getByLabel('kitchen').check();
    await form.getByRole('button', { name: 'Create the key' }).click();
    const shown = (await page.getByTestId('created-key').textContent())!.trim();
    expect(shown).toMatch(/^fk_/);
    const row = page.locator('[data-testid="api-key-list"] tr', { hasText: 'kitchen agent' });
    await row.waitFor();
    expect(await row.getByTestId('key-reach').textContent()).toBe('groups: kitchen');
    const fleetWide = page.locator('[data-testid="api-key-list"] tr', { hasText: 'test' }).first();
    expect(await fleetWide.getByTestId('key-reach').textContent()).toBe('the whole fleet');
    await screenshot(page, '30-api-keys');

    const { rows } = await h.pool.query(
      `SELECT g.name FROM api_key k JOIN api_key_group kg ON kg.api_key_id = k.id JOIN device_group g ON g.id = kg.group_id
        WHERE k.name = 'kitchen agent'`,
    );
    expect(rows).toEqual([{ name: 'kitchen' }]);
    const me = await h.request('GET', '/api/v1/devices', { key: shown });
    expect(me).toMatchObject({ status: 200, body: { items: [] } }); // the group has no device yet
  });
});
