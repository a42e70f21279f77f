import type { Browser, Locator, Page } from 'playwright-core';
// The admin API's own harness and fixtures: the API in-process serving the built console, one database.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { insertCall, insertCatalog } from '../../admin-api/test/fixtures';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { insertDevices, startHarness, type Harness } from '../../admin-api/test/harness';
import { launchChromium, newContext, screenshot, signIn } from './browser';

const PASSWORD = 'console-bidi-password-1';
/** Shown as `self.sec.exe.png` by a browser that obeys the RIGHT-TO-LEFT OVERRIDE. */
const SPOOF = 'self.sec.\u202egnp.exe';
const SHOWN = 'self.sec.⟨U+202E⟩gnp.exe';
const WIFI = 'self.system.reconfigure_wifi';

/** What the test reads of an element in the page (the root program has no DOM library). */
interface Rendered {
  tagName: string;
  textContent: string | null;
}

/** The element, its text, and how the browser lays it out: an isolate, and no control left to act. */
async function rendering(locator: Locator) {
  await locator.waitFor();
  return locator.evaluate((el: Rendered) => {
    const style = (
      globalThis as unknown as { getComputedStyle(e: unknown): { unicodeBidi: string } }
    ).getComputedStyle(el);
    return { tag: el.tagName, text: el.textContent ?? '', unicodeBidi: style.unicodeBidi };
  });
}

// In headless Chromium against the API serving the built console: a device's tool named with a bidi override is
// shown as what it is (the override spelt out, the name isolated from the words around it) where an approver
// decides and where an operator reads the catalog.
describe('device text in the console', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let device: string;

  beforeAll(async () => {
    h = await startHarness();
    const [alice, bob] = await Promise.all([
      h.person('operator', { email: 'alice@example.com', password: PASSWORD }),
      h.person('operator', { email: 'bob@example.com' }),
    ]);
    device = (await insertDevices(h.pool, 1, { online: true }))[0]!;
    const { versionId } = await insertCatalog(h.pool, device, [
      { name: 'self.get_device_status' },
      { name: SPOOF, description: 'Opens the \u202edoor\u202c of the lab.' },
      { name: WIFI, description: 'Enter WiFi setup mode. You must ask the user  to\nconfirm.' },
    ]);
    // Bob's call to it waits for another person, pre-flight passed (as the orchestrator leaves it).
    const callId = await insertCall(h.pool, {
      deviceId: device,
      tool: SPOOF,
      state: 'awaiting_approval',
      operatorId: bob.operatorId,
      reason: 'weekly check',
    });
    await h.pool.query(
      `INSERT INTO approval (id, call_id, device_id, tool, arguments, arguments_hash, requested_by, expires_at,
                             preflight, catalog_version_id, tool_hash)
       VALUES (gen_random_uuid(), $1, $2, $3, '{}', 'hash', $4, now() + interval '1 hour', '{"rules": []}', $5, 'h')`,
      [callId, device, SPOOF, bob.operatorId, versionId],
    );
    browser = await launchChromium();
    page = await (await newContext(browser, h.baseUrl)).newPage();
    await signIn(page, alice.email, PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('shows the tool name on the approvals inbox with its override visible and isolated', async () => {
    await page.getByRole('link', { name: 'Approvals', exact: true }).click();
    const name = page.locator(`[data-testid="approval-tool"] bdi`).first();
    const shown = await rendering(name);
    expect(shown).toEqual({ tag: 'BDI', text: SHOWN, unicodeBidi: 'isolate' });
    await expect(page.locator('[data-testid="approval-tool"] .bidi-control').textContent()).resolves.toBe(
      '⟨U+202E⟩',
    );
    expect(await page.locator('[data-page="approvals"]').textContent()).not.toContain('\u202e');
    await screenshot(page, '30-bidi-approvals');
  });

  it('shows the tool name and its description on the catalog the same way, and the name flagged', async () => {
    await page.goto(`/devices/${encodeURIComponent(device)}`);
    const tool = page.locator(`[data-tool="${SPOOF}"]`);
    expect(await rendering(tool.locator('[data-testid="tool-name"] bdi'))).toEqual({
      tag: 'BDI',
      text: SHOWN,
      unicodeBidi: 'isolate',
    });
    expect(await rendering(tool.locator('summary .muted bdi'))).toMatchObject({
      text: 'Opens the ⟨U+202E⟩door⟨U+202C⟩ of the lab.',
      unicodeBidi: 'isolate',
    });
    await tool.locator('[data-name-flag="bidi_control"]').waitFor();
    expect(await page.locator('[data-testid="tool-catalog"]').textContent()).not.toContain('\u202e');
    await screenshot(page, '31-bidi-catalog');
  });

  it('badges a tool gated by default, with the phrasing of its description that made it so', async () => {
    const tool = page.locator(`[data-tool="${WIFI}"]`);
    await expect(tool.getByTestId('gated-by-default').textContent()).resolves.toBe('gated by default');
    await expect(
      tool.locator('.badge', { has: page.getByTestId('gated-by-default') }).getAttribute('title'),
    ).resolves.toBe('its description asks for the user\'s confirmation ("ask the user to confirm")');
    expect(await page.locator(`[data-tool="${SPOOF}"] [data-testid="gated-by-default"]`).count()).toBe(0);
  });
});
