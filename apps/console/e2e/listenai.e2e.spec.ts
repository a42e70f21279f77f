import type { Browser, Page } from 'playwright-core';
import { ListenAiDevice } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
// The admin API's own platform fixture, as console.e2e.spec.ts uses it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startPlatform, type Platform } from '../../admin-api/test/platform';
import { launchChromium, newContext, screenshot, signIn } from './browser';

const PASSWORD = 'console-listenai-password-1';
const MAC = '02:c0:1a:00:00:01';
const STEP_MS = 45_000;

// In headless Chromium against the real platform: an operator registers a ListenAI device and is shown its
// token once; a simulated device links with that token and is discovered; its catalog says sensitivity is the
// operator's marking; a photo call's image is shown on the call page from the evidence; a capability campaign
// made in the form sets its volume through its model's own tool.
describe('a ListenAI device in the console', () => {
  let p: Platform;
  let browser: Browser;
  let page: Page;
  let device: ListenAiDevice | undefined;
  let aliceKey: string;

  beforeAll(async () => {
    p = await startPlatform();
    await p.startOrchestrator('console-listenai');
    const alice = await p.h.person('operator', { email: 'alice@example.com', password: PASSWORD });
    aliceKey = alice.key;
    browser = await launchChromium();
    page = await (await newContext(browser, p.h.baseUrl)).newPage();
    await signIn(page, alice.email, PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await device?.stop();
    await browser?.close();
    await p?.close();
  });

  it(
    'registers the device and shows its token once; the device links with it and is discovered',
    async () => {
      await page.getByRole('link', { name: 'Devices', exact: true }).click();
      await page.getByTestId('register-device').click();
      await page.getByLabel('MAC address').fill(MAC);
      await page.getByLabel('Model (optional)').fill('arcs-mini');
      await page.getByRole('button', { name: 'Register and issue a token' }).click();
      const token = (await page.getByTestId('link-token').textContent())!.trim();
      expect(token).toMatch(/^lt_[a-z0-9]{10}_/);
      await screenshot(page, '20-listenai-registered');
      device = new ListenAiDevice({
        mac: MAC,
        token,
        linkUrls: [`ws://127.0.0.1:${p.broker.ports['link']}`],
        reconnectDelayMs: 50,
      });
      device.start();
      await waitFor(
        async () =>
          (
            await p.h.owner.query('SELECT 1 FROM device WHERE id = $1 AND catalog_version_id IS NOT NULL', [
              MAC,
            ])
          ).rowCount === 1,
        { what: 'discovery of the ListenAI device', timeoutMs: 15_000 },
      );
      await page.getByRole('link', { name: 'Open the device' }).click();
      await page.locator('[data-page="device"]').waitFor();
      await expectText(page.getByTestId('device-dialect'), 'ListenAI (link)');
      await expectText(page.getByTestId('device-presence'), 'online');
      await expectText(page.getByTestId('audience-note'), /marks sensitive/);
      await page.locator('[data-tool="take_photo"]').waitFor();
      await expectText(page.getByTestId('link-tokens'), /in use/);
      expect(await page.content()).not.toContain(token); // the device page never shows the secret
      await screenshot(page, '21-listenai-device');
    },
    STEP_MS,
  );

  it(
    'calls the camera and shows the image the device sent, from the evidence',
    async () => {
      const form = page.getByTestId('call-form');
      await form.getByRole('combobox').first().selectOption('take_photo');
      await form.getByRole('button', { name: 'Send the call' }).click();
      await page.locator('[data-page="call"][data-verdict="acknowledged"]').waitFor({ timeout: 30_000 });
      const image = page.getByTestId('reply-images').locator('img');
      await image.waitFor();
      expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
      expect(await image.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBe(1);
      // The request is shown as it went out: ListenAI's envelope, its string id, no jsonrpc.
      await expectText(page.getByLabel('Request'), /"action": "mcp"/);
      expect(await page.getByLabel('Request').textContent()).not.toContain('jsonrpc');
      await screenshot(page, '22-listenai-call-image');
    },
    STEP_MS,
  );

  it(
    "runs a capability campaign made in the form: the model's profile maps volume to its own tool, verified by its reader",
    async () => {
      const profile = await p.h.request('PUT', '/api/v1/tool-profiles', {
        key: aliceKey,
        body: {
          model: 'arcs-mini',
          tool: 'set_volume',
          kind: 'action',
          readback: { tool: 'get_volume', argument: 'value', path: 'value' },
          capability: { name: 'volume', argument: 'value' },
        },
      });
      expect(profile.status).toBe(200);
      await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
      await page.getByRole('link', { name: 'New campaign' }).click();
      await page.locator('input[name="name"]').fill('Volume 35');
      await page.locator('textarea[name="deviceIds"]').fill(MAC);
      await expectText(page.getByTestId('matched-count'), '1');
      await page.locator('input[name="actionKind"][value="capability"]').check();
      // The capabilities the profiles map are offered, with the model and tool that carry each out.
      await waitFor(
        async () =>
          (await page.locator('[data-testid="known-capabilities"] option[value="volume"]').count()) === 1,
        { what: 'the volume capability offered' },
      );
      await page.locator('input[name="capability"]').fill('volume');
      await page.locator('input[name="capabilityValue"]').fill('35');
      await page.locator('select[name="doneWhen"]').selectOption('verified');
      await screenshot(page, '23-listenai-capability-campaign-new');
      await page.getByRole('button', { name: 'Create and start' }).click();
      await page
        .locator('[data-page="campaign"][data-campaign-state="completed"]')
        .waitFor({ timeout: 30_000 });
      await expectText(page.locator('[data-count="verified"] b'), '1');
      await expectText(page.getByTestId('campaign-capability'), /volume/);
      expect(device!.state.volume).toBe(35);
      await screenshot(page, '24-listenai-capability-campaign');
    },
    STEP_MS,
  );
});

async function expectText(locator: ReturnType<Page['locator']>, expected: string | RegExp): Promise<void> {
  await waitFor(
    async () => {
      const text = (await locator.textContent({ timeout: 1_000 }))?.trim() ?? '';
      return typeof expected === 'string' ? text.includes(expected) : expected.test(text);
    },
    { timeoutMs: 15_000, intervalMs: 100, what: `text ${String(expected)}` },
  );
}
