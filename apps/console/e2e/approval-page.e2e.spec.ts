import type { Browser, Page } from 'playwright-core';
import type { Fleet } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
// The admin API's own fixtures (the platform, a hand-built MCP 2026-07-28 client): shared test code, reused.
// eslint-disable-next-line @nx/enforce-module-boundaries
import type { Json, Person } from '../../admin-api/test/harness';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { modernRequest } from '../../admin-api/test/mcp-clients';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startPlatform, type Platform } from '../../admin-api/test/platform';
import { launchChromium, newContext, screenshot, signIn } from './browser';

const PASSWORD = 'approval-page-password-1';
const TASKS = { 'io.modelcontextprotocol/tasks': {} };

// The pages an outside agent's client sends its user to: an agent (Bob's key) asks for a reboot and for a reboot
// campaign through /mcp; each answer names a console URL; Alice, signed in, opens it, sees what was asked and by
// whom, and approves as the second person, after which the call and the campaign go on to their verdicts.
describe('the approval pages an agent points at', () => {
  let p: Platform;
  let fleet: Fleet;
  let browser: Browser;
  let page: Page;
  let alice: Person;
  let bob: Person;

  const agent = (method: string, params: Record<string, unknown>) =>
    modernRequest(`${p.h.baseUrl}/mcp`, bob.key, method, params);
  const mac = (i: number) => fleet.devices[i]!.mac;

  beforeAll(async () => {
    p = await startPlatform();
    await p.startOrchestrator('approval-page');
    [alice, bob] = await Promise.all([
      p.h.person('operator', { email: 'alice@example.com', password: PASSWORD }),
      p.h.person('operator', { email: 'bob@example.com' }),
    ]);
    [fleet, browser] = await Promise.all([p.fleet({ count: 2, macPrefix: '02:c0:a9' }), launchChromium()]);
    page = await (await newContext(browser, p.h.baseUrl)).newPage();
    await signIn(page, alice.email, PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });

  it("shows the agent's call on the approval page it was sent to, and approves it as the second person", async () => {
    const asked = await agent('tools/call', {
      name: 'call_device_tool',
      arguments: { deviceId: mac(0), tool: 'self.reboot', reason: 'it hangs after the update' },
    });
    expect(asked.body.result.resultType).toBe('input_required');
    const url: string = asked.body.result.inputRequests.approval.params.url;
    const callId: string = asked.body.result._meta.callId;
    expect(url).toMatch(/\/approvals\/[0-9a-f-]{36}$/);

    await page.goto(url);
    const card = page.locator('[data-page="approval"] [data-tool="self.reboot"]');
    await card.waitFor();
    expect(await card.getAttribute('data-device')).toBe(mac(0));
    expect(await page.getByTestId('requester').getAttribute('title')).toBe(bob.email);
    expect(await page.locator('[data-page="approval"]').textContent()).toContain('it hangs after the update');
    await screenshot(page, 'approval-page-call');
    await page.getByRole('button', { name: 'Approve' }).click();

    const sealed = await waitFor(
      async () => {
        const { rows } = await p.h.owner.query('SELECT verdict FROM call WHERE id = $1', [callId]);
        return rows[0].verdict ?? undefined;
      },
      { what: 'the approved reboot’s verdict', timeoutMs: 30_000 },
    );
    expect(sealed).toBe('verified');
    expect(fleet.devices[0]!.bootCount).toBe(2);
    const { rows } = await p.h.owner.query('SELECT decided_by FROM approval WHERE call_id = $1', [callId]);
    expect(rows[0].decided_by).toBe(alice.operatorId);
  }, 60_000);

  it("leads from an agent's campaign page to its approval, and the approved campaign completes", async () => {
    const asked = await agent('tools/call', {
      name: 'run_campaign',
      arguments: { name: 'agent reboot', selector: { deviceIds: [mac(1)] }, tool: 'self.reboot' },
      _meta: {
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} }, extensions: TASKS },
      },
    });
    const task: Json = asked.body.result.task;
    expect(task.status).toBe('input_required');
    const url: string = (await agent('tasks/get', { taskId: task.taskId })).body.result.inputRequests.approval
      .params.url;
    expect(url).toMatch(/\/campaigns\/[0-9a-f-]{36}$/);

    await page.goto(url);
    await page.locator('[data-page="campaign"][data-campaign-state="awaiting_approval"]').waitFor();
    await screenshot(page, 'approval-page-campaign');
    await page.getByTestId('campaign-approval').click();
    await page.locator('[data-page="approval"] [data-tool="self.reboot"]').waitFor();
    expect(await page.getByTestId('requester').getAttribute('title')).toBe(bob.email);
    await page.getByRole('button', { name: 'Approve' }).click();

    await page.goto(url);
    await page
      .locator('[data-page="campaign"][data-campaign-state="completed"]')
      .waitFor({ timeout: 30_000 });
    expect(fleet.devices[1]!.bootCount).toBe(2);
    expect((await agent('tasks/get', { taskId: task.taskId })).body.result.status).toBe('completed');
  }, 60_000);
});
