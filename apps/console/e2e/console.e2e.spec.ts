import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Fleet } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
// The admin API's own platform fixture: the API in-process (serving the built console), the real broker and
// orchestrator as processes, simulated devices. Shared test code, reused rather than copied.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { insertDevices, type Person } from '../../admin-api/test/harness';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startPlatform, type Platform } from '../../admin-api/test/platform';
import { launchChromium, newContext, screenshot } from './browser';

const PASSWORD = 'console-e2e-password-1';
/** The part of a DOM element the test uses (the root program has no DOM library). */
interface Scrollable {
  scrollHeight: number;
  scrollTo(x: number, y: number): void;
}
const STEP_MS = 45_000;

// The console as an operator uses it: in headless Chromium against the real platform with simulated devices, sign in, find a
// device, make a call and watch it become `verified`, approve another operator's reboot and see it verified by
// the reconnect, start a small campaign and see it finish, download an audit CSV; screenshots of each page.
describe('the operator console in a browser', () => {
  let p: Platform;
  let fleet: Fleet;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let alice: Person; // signs in to the console
  let bob: Person; // another operator, asking through the API
  let macs: string[];
  /** What Chromium reports the console's content security policy blocked, on any page of the walk. */
  const blocked: string[] = [];

  beforeAll(async () => {
    p = await startPlatform();
    await p.startOrchestrator('console-e2e');
    [alice, bob] = await Promise.all([
      p.h.person('operator', { email: 'alice@example.com', password: PASSWORD }),
      p.h.person('operator', { email: 'bob@example.com' }),
    ]);
    [fleet, browser] = await Promise.all([p.fleet({ count: 6, macPrefix: '02:c0:e2' }), launchChromium()]);
    macs = fleet.devices.map((d) => d.mac).sort();
    // 10,000 more devices (never connected): the list must stay quick and light with a fleet this size.
    await insertDevices(p.h.pool, 10_000, { board: 'warehouse-shelf', firmware: '1.5.2', online: false });
    context = await newContext(browser, p.h.baseUrl);
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });

  it(
    'signs in with a password and shows the fleet, live',
    async () => {
      await page.goto('/');
      await page.getByLabel('Email').waitFor();
      // No OpenID Connect provider is configured here: the page offers the password only.
      expect(await page.getByTestId('oidc-sign-in').count()).toBe(0);
      await page.getByLabel('Email').fill(alice.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.locator('[data-page="overview"]').waitFor();
      await expectText(page.getByTestId('online-count'), /^6\b/);
      await expectText(page.getByTestId('offline-count'), /^10,000\b/);
      await page.locator('[data-live="true"]').waitFor();
      await screenshot(page, '01-overview');
    },
    STEP_MS,
  );

  it(
    'finds a device among 10,006, keeping only the visible rows in the page',
    async () => {
      await page.getByRole('link', { name: 'Devices', exact: true }).click();
      await page.locator('[data-device]').first().waitFor();
      await expectText(page.getByTestId('device-count'), /200 devices loaded/);
      await screenshot(page, '02-devices');
      // Scrolling to the end loads the next pages; the DOM holds only the rows in view.
      for (let i = 0; i < 3; i++) {
        await page
          .getByTestId('device-scroller')
          .evaluate((el: Scrollable) => el.scrollTo(0, el.scrollHeight));
        await expectText(page.getByTestId('device-count'), new RegExp(`${(i + 2) * 200} devices loaded`));
      }
      expect(await page.locator('[data-device]').count()).toBeLessThan(60);
      await page.getByRole('searchbox').fill(macs[0]!);
      await page.locator(`[data-device="${macs[0]}"]`).waitFor();
      await expectText(page.getByTestId('device-count'), /^1 device$/);
      await page.getByRole('link', { name: macs[0]! }).click();
      await page.locator('[data-page="device"]').waitFor();
      await expectText(page.getByTestId('device-presence'), 'online');
      await page.locator('[data-tool="self.reboot"] [data-testid="user-only"]').waitFor();
      // DESIGN §3: the Client-Id is the device's secret; the page shows the fingerprint of its hash only.
      const uuid = fleet.devices.find((d) => d.mac === macs[0])!.clientId.split('@@@')[2]!;
      await expectText(page.getByTestId('device-client-id'), /^[0-9a-f]{8}…$/);
      expect((await page.content()).toLowerCase()).not.toContain(uuid.toLowerCase());
    },
    STEP_MS,
  );

  it(
    'calls set_volume from the device page and watches the call become verified',
    async () => {
      const form = page.getByTestId('call-form');
      await form.getByRole('combobox').first().selectOption('self.audio_speaker.set_volume');
      await form.locator('input[name="volume"]').fill('40');
      await form.locator('input[name="reason"]').fill('quieter for the night shift');
      await form.getByRole('button', { name: 'Send the call' }).click();
      await page.locator('[data-page="call"][data-verdict="verified"]').waitFor({ timeout: 30_000 });
      await expectText(page.getByTestId('verdict-explanation'), /the volume read back as 40, as asked/);
      await page.locator('[data-stage="effect"].done').waitFor();
      expect(
        await page
          .locator('[data-testid="evidence"] .stage.done, [data-testid="evidence"] .stage.skipped')
          .count(),
      ).toBe(5);
      await expectText(page.getByLabel('Reply, exactly as received'), /"jsonrpc": "2.0"/);
      await screenshot(page, '04-call-verified');
      // The device page shows it in the call timeline, and the status read back.
      await page.getByRole('link', { name: macs[0]! }).first().click();
      await page.locator('[data-testid="last-status"] [data-key="audio_speaker.volume"]').waitFor();
      await expectText(
        page.locator('[data-testid="last-status"] [data-key="audio_speaker.volume"] td'),
        '40',
      );
      await page.locator('[data-testid="catalog-versions"]').waitFor();
      await page.locator('[data-testid="presence-history"]').waitFor();
      // Takeovers of its connection (none for a device left alone): counted where an impostor would show.
      await expectText(page.getByTestId('takeover-counts'), /0 times in the last hour, 0 in the last day/);
      await screenshot(page, '03-device');
    },
    STEP_MS,
  );

  it("approves another operator's reboot, which the reconnect verifies; her own request she cannot approve", async () => {
    await page.getByRole('link', { name: 'Approvals', exact: true }).click();
    await page.locator('[data-page="approvals"]').waitFor();
    // Alice asks for a reboot herself: the inbox shows it, and will not let her approve it.
    const own = await p.h.request('POST', `/api/v1/devices/${macs[2]}/calls`, {
      key: await p.h.addKey(alice.operatorId, 'operator'),
      body: { tool: 'self.reboot', reason: 'alice asks herself' },
    });
    // Bob asks for a reboot through the API; it appears in Alice's open inbox without a reload (live events).
    const asked = await p.h.request('POST', `/api/v1/devices/${macs[1]}/calls`, {
      key: bob.key,
      body: { tool: 'self.reboot', reason: 'frozen screen in room 12' },
    });
    expect([own.body.state, asked.body.state]).toEqual(['awaiting_approval', 'awaiting_approval']);
    const mine = page.locator(`[data-device="${macs[2]}"]`);
    const bobs = page.locator(`[data-device="${macs[1]}"]`);
    await bobs.waitFor();
    await mine.waitFor();
    await expectText(bobs.getByTestId('requester'), /bob@example\.com/);
    expect(await mine.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await expectText(mine, /You asked for this yourself: another person must decide it/);
    await screenshot(page, '05-approvals');
    await bobs.getByRole('textbox').fill('screen frozen, reboot agreed');
    await bobs.getByRole('button', { name: 'Approve' }).click();
    await bobs.waitFor({ state: 'detached' });
    // She withdraws her own request instead.
    await mine.getByRole('button', { name: 'Withdraw my request' }).click();
    await mine.waitFor({ state: 'detached' });

    await page.goto(`/calls/${asked.body.id}`);
    await page.locator('[data-page="call"][data-verdict="verified"]').waitFor({ timeout: 40_000 });
    await expectText(
      page.getByTestId('verdict-explanation'),
      /rebooted: it checked in after a boot and reconnected/,
    );
    await expectText(page.getByTestId('approved-by'), alice.email);
    await screenshot(page, '06-call-reboot');
  }, 75_000);

  it(
    'starts a small campaign with a live count of matched devices and watches it complete',
    async () => {
      await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
      await page.getByRole('link', { name: 'New campaign' }).click();
      await page.locator('input[name="name"]').fill('Night volume');
      await page.locator('input[name="board"]').fill('bread-compact-wifi');
      await page.locator('select[name="online"]').selectOption('true');
      await expectText(page.getByTestId('matched-count'), '6');
      await page.locator('input[name="tool"]').fill('self.audio_speaker.set_volume');
      await page.locator('textarea[name="arguments"]').fill('{"volume": 30}');
      await page.locator('input[name="batchSize"]').fill('3');
      await page.locator('input[name="maxInFlight"]').fill('3');
      await screenshot(page, '07-campaign-new');
      await page.getByRole('button', { name: 'Create and start' }).click();
      await page.locator('[data-page="campaign"]').waitFor();
      await page
        .locator('[data-page="campaign"][data-campaign-state="completed"]')
        .waitFor({ timeout: 40_000 });
      await expectText(page.locator('[data-count="verified"] b'), '6');
      await waitFor(
        async () => (await page.locator('[data-testid="campaign-targets"] .tone-good').count()) === 6,
        {
          what: 'every device verified in the target list',
        },
      );
      await screenshot(page, '08-campaign');
    },
    STEP_MS,
  );

  it(
    'downloads the audit report as CSV and checks the evidence chains',
    async () => {
      await page.getByRole('link', { name: 'Audit', exact: true }).click();
      await page.getByTestId('audit-report').waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('csv-calls').click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^audit-calls-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8');
      expect(csv.split('\r\n')[0]).toContain('call_id');
      expect(csv).toContain('self.audio_speaker.set_volume');
      expect(csv).toContain('frozen screen in room 12');
      await page.getByRole('button', { name: 'Check now' }).click();
      await page.locator('[data-testid="integrity-result"][data-ok="true"]').waitFor();
      await screenshot(page, '09-audit');
    },
    STEP_MS,
  );

  it(
    'shows on the overview what happened: calls by verdict and the campaign',
    async () => {
      await page.getByRole('link', { name: 'Overview', exact: true }).click();
      await page.locator('[data-page="overview"]').waitFor();
      await page.locator('rect[data-series="verified"]').first().waitFor();
      await expectText(page.getByTestId('online-count'), /^6\b/);
      await screenshot(page, '11-overview-after');
    },
    STEP_MS,
  );

  it(
    'speaks Chinese to a browser that prefers it, and shows a viewer what they may not do',
    async () => {
      const viewer = await p.h.person('viewer', { email: 'vera@example.com', password: PASSWORD });
      const zh = await newContext(browser, p.h.baseUrl, 'zh-CN');
      try {
        const tab = await zh.newPage();
        await tab.goto('/');
        await tab.getByLabel('邮箱').fill(viewer.email);
        await tab.getByLabel('密码').fill(PASSWORD);
        await tab.getByRole('button', { name: '登录', exact: true }).click();
        await tab.locator('[data-page="overview"]').waitFor();
        await tab.getByRole('link', { name: '设备', exact: true }).waitFor();
        await tab.locator('rect[data-series="verified"]').first().waitFor();
        await screenshot(tab, '10-overview-zh');
        await tab.goto(`/devices/${encodeURIComponent(macs[3]!)}`);
        const send = tab.getByTestId('call-form').getByRole('button', { name: '发送调用' });
        await send.waitFor();
        expect(await send.isDisabled()).toBe(true);
        await expectText(tab.getByTestId('call-form'), /需要操作员角色/);
        // Switching the language is one click, and sticks.
        await tab.getByLabel('语言').selectOption('en');
        await tab.getByRole('link', { name: 'Devices', exact: true }).waitFor();
      } finally {
        await zh.close();
      }
    },
    STEP_MS,
  );

  it("breaks no rule of the console's content security policy on any page it showed", () => {
    expect(blocked).toEqual([]);
  });
});

async function expectText(locator: ReturnType<Page['locator']>, expected: string | RegExp): Promise<void> {
  await waitFor(
    async () => {
      const text = (await locator.textContent({ timeout: 1_000 }))?.trim() ?? '';
      return typeof expected === 'string' ? text.includes(expected) : expected.test(text);
    },
    { timeoutMs: 15_000, intervalMs: 100, what: `text ${String(expected)}` },
  ).catch(async (err: Error) => {
    throw new Error(
      `${err.message}; the page shows: ${(await locator.textContent().catch(() => '?')) ?? ''}`,
    );
  });
}
