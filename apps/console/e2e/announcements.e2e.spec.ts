import type { Browser, Page } from 'playwright-core';
import type { Fleet } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
// The admin API's own platform fixture: the API in-process (serving the built console), the real broker and
// orchestrator as processes, simulated devices. Shared test code, reused.
// eslint-disable-next-line @nx/enforce-module-boundaries
import type { Person } from '../../admin-api/test/harness';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startPlatform, type Platform } from '../../admin-api/test/platform';
import { launchChromium, newContext, screenshot, signIn } from './browser';

const PASSWORD = 'announce-e2e-password-1';
const STEP_MS = 45_000;

// Announcements in the console: composed on a device page (the call page then shows its evidence as any call's),
// scheduled there and paused, resumed and cancelled from the list, and composed for a selection of devices on the
// devices list (an announcement campaign over exactly those).
describe('announcements in the console', () => {
  let p: Platform;
  let fleet: Fleet;
  let browser: Browser;
  let page: Page;
  let alice: Person;
  let macs: string[];

  const alertsOf = (mac: string, message: string) =>
    fleet.devices
      .find((d) => d.mac === mac)!
      .observed.voiceMessages.all.filter((m) => m.type === 'alert' && m.message === message).length;

  beforeAll(async () => {
    p = await startPlatform();
    await p.startOrchestrator('announce-e2e');
    alice = await p.h.person('operator', { email: 'alice@example.com', password: PASSWORD });
    [fleet, browser] = await Promise.all([p.fleet({ count: 3, macPrefix: '02:c0:a7' }), launchChromium()]);
    macs = fleet.devices.map((d) => d.mac).sort();
    page = await (await newContext(browser, p.h.baseUrl)).newPage();
    await signIn(page, alice.email, PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });

  it(
    "sends an alert from a device page and shows its evidence on the call's page",
    async () => {
      await page.goto(`/devices/${macs[0]}`);
      const form = page.getByTestId('announce-form');
      await form.locator('textarea[name="text"]').fill('Fire drill at noon');
      await form.locator('input[name="title"]').fill('Notice');
      await form.getByRole('button', { name: 'Send the announcement' }).click();
      // An alert proves only that it was published on the device's connection: no_response, and says so.
      await page.locator('[data-page="call"][data-verdict="no_response"]').waitFor({ timeout: 30_000 });
      await page.locator('[data-stage="effect"].done').waitFor();
      await page.getByText('the alert was published on the device connection').first().waitFor();
      expect(alertsOf(macs[0]!, 'Fire drill at noon')).toBe(1);
      expect(alertsOf(macs[1]!, 'Fire drill at noon')).toBe(0);
      await screenshot(page, 'announce-01-call');
    },
    STEP_MS,
  );

  it(
    'schedules a recurring announcement on a device page, and pauses, resumes and cancels it from the list',
    async () => {
      await page.goto(`/devices/${macs[1]}`);
      const form = page.getByTestId('announce-form');
      await form.locator('textarea[name="text"]').fill('Stretch break');
      await form.getByLabel('Recurring (cron)').check();
      await form.locator('input[name="cron"]').fill('0 9 * * mon-fri');
      await form.getByRole('button', { name: 'Schedule it' }).click();
      const row = page.locator('[data-testid="schedule-list"] li').filter({ hasText: 'Stretch break' });
      await row.and(page.locator('[data-state="active"]')).waitFor();
      for (const [step, state] of [
        ['Pause', 'paused'],
        ['Resume', 'active'],
        ['Cancel', 'cancelled'],
      ] as const) {
        await row.getByRole('button', { name: step }).click();
        await row.and(page.locator(`[data-state="${state}"]`)).waitFor();
      }
      expect(await row.getByRole('button').count()).toBe(0); // a cancelled schedule takes no step
      const listed = await p.h.request('GET', `/api/v1/announcement-schedules?deviceId=${macs[1]}`, {
        key: alice.key,
      });
      expect(listed.body.items).toEqual([
        expect.objectContaining({ state: 'cancelled', cron: '0 9 * * mon-fri' }),
      ]);
      await page.goto('/announcement-schedules');
      await page.locator('[data-page="schedules"] [data-state="cancelled"]').waitFor();
    },
    STEP_MS,
  );

  it(
    'announces to devices selected on the devices list, as a campaign over exactly them',
    async () => {
      await page.goto('/devices');
      for (const mac of [macs[1]!, macs[2]!])
        await page.locator(`[data-device="${mac}"] [data-testid="device-select"]`).check();
      const form = page.getByTestId('announce-form');
      await form.locator('textarea[name="text"]').fill('Canteen closes early');
      await form.getByRole('button', { name: 'Send the announcement' }).click();
      await page
        .locator('[data-page="campaign"][data-campaign-state="completed"]')
        .waitFor({ timeout: 30_000 });
      await screenshot(page, 'announce-02-campaign');
      await waitFor(() => alertsOf(macs[2]!, 'Canteen closes early') === 1, {
        what: 'the alert on the third',
      });
      expect(alertsOf(macs[1]!, 'Canteen closes early')).toBe(1);
      expect(alertsOf(macs[0]!, 'Canteen closes early')).toBe(0);
    },
    STEP_MS,
  );
});
