import { approvalOf } from '@fleet/testing';
import type { SimDevice } from '@fleet/device-sim';
import { startPlatform, type Platform } from '../../test/platform-fixture';

const sawTool = (device: SimDevice, tool: string) =>
  device.observed.received.all.some((m) => m.text.includes('"tools/call"') && m.text.includes(`"${tool}"`));

describe('the user-only gate', () => {
  let p: Platform;
  let requester: string;
  let approver: string;

  beforeAll(async () => {
    p = await startPlatform();
    requester = await p.operator('Requester');
    approver = await p.operator('Approver');
  });
  afterAll(() => p.close());

  async function decide(
    callId: string,
    deviceId: string,
    by: string,
    state: 'approved' | 'rejected',
    reason?: string,
  ): Promise<void> {
    await approvalOf(p.sql, callId); // opened once pre-flight has passed the call
    await p.sql.query(
      `UPDATE approval SET state = $2, decided_by = $3, decided_at = now(), reason = $4 WHERE call_id = $1`,
      [callId, state, by, reason ?? null],
    );
    await p.calls.wake(callId, deviceId);
  }

  it('rejects a reboot the voice assistant asks for, and nothing reaches the device', async () => {
    const device = await p.device();
    const callId = await p.call({ device, tool: 'self.reboot', origin: 'llm' });
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('rejected');
    expect(call.verdict_reason).toContain('user-only');
    expect(sawTool(device, 'self.reboot')).toBe(false);
    expect(device.bootCount).toBe(1);
  });

  it("holds an operator's reboot until a second operator approves it, then verifies it by the boot and reconnect", async () => {
    const device = await p.device();
    const callId = await p.call({ device, tool: 'self.reboot', origin: 'operator', operatorId: requester });
    const { rows } = await p.sql.query(`SELECT state FROM call WHERE id = $1`, [callId]);
    expect(rows[0].state).toBe('awaiting_approval');
    expect(sawTool(device, 'self.reboot')).toBe(false);
    await decide(callId, device.mac, approver, 'approved');
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('verified');
    expect(device.bootCount).toBe(2);
    const rowsOf = await p.evidence(callId);
    expect(rowsOf.find((r) => r.stage === 'decision')!.payload['approval']).toMatchObject({
      state: 'approved',
      decidedBy: approver,
    });
    expect(rowsOf.find((r) => r.stage === 'response')!.payload).toMatchObject({ outcome: 'no_reply' });
    expect(rowsOf.find((r) => r.stage === 'effect')!.payload).toMatchObject({ method: 'reboot_observed' });
  });

  it('refuses an approval given by the requester themself', async () => {
    const device = await p.device();
    const callId = await p.call({ device, tool: 'self.reboot', origin: 'operator', operatorId: requester });
    await decide(callId, device.mac, requester, 'approved');
    const call = await p.waitVerdict(callId);
    expect(call).toMatchObject({ verdict: 'rejected', verdict_reason: 'approved by the requester themself' });
    expect(device.bootCount).toBe(1);
  });

  it('ends expired when nobody approves in time', async () => {
    const device = await p.device();
    const callId = await p.call({
      device,
      tool: 'self.reboot',
      origin: 'operator',
      operatorId: requester,
      approvalTtlMs: 1_000,
    });
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('expired');
    expect((await p.evidence(callId)).map((r) => r.stage)).toEqual([
      'discovery',
      'decision',
      'parameters',
      'response',
      'effect',
    ]);
  });

  it("ends rejected with the approver's reason", async () => {
    const device = await p.device();
    const callId = await p.call({ device, tool: 'self.reboot', origin: 'operator', operatorId: requester });
    await decide(callId, device.mac, approver, 'rejected', 'not during class');
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('rejected');
    expect(call.verdict_reason).toContain('not during class');
  });

  it('gates a system reboot message exactly like self.reboot', async () => {
    const device = await p.device();
    const byLlm = await p.waitVerdict(await p.call({ device, tool: 'system.reboot', origin: 'llm' }));
    expect(byLlm.verdict).toBe('rejected');
    const callId = await p.call({ device, tool: 'system.reboot', origin: 'operator', operatorId: requester });
    await decide(callId, device.mac, approver, 'approved');
    expect((await p.waitVerdict(callId)).verdict).toBe('verified');
    expect(device.bootCount).toBe(2);
  });

  it('ends device_error on an error the firmware broke with an unescaped quote, with its message recovered', async () => {
    const device = await p.device();
    const url = 'http://127.0.0.1:1/"quoted".jpg';
    const callId = await p.call({
      device,
      tool: 'self.screen.preview_image',
      arguments: { url },
      origin: 'operator',
      operatorId: requester,
    });
    await decide(callId, device.mac, approver, 'approved');
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('device_error');
    expect(call.verdict_reason).toBe(`Failed to open URL: ${url}`);
    const response = (await p.evidence(callId)).find((r) => r.stage === 'response')!.payload;
    const raw = Buffer.from(String(response['raw']), 'base64').toString();
    expect(() => JSON.parse(raw)).toThrow(); // the device really sent invalid JSON, kept as it was
  });
});
