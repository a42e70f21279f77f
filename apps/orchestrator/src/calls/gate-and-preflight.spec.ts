import { BREAD_COMPACT_WIFI, type BoardConfig, type SimDevice } from '@fleet/device-sim';
import { waitFor, approvalOf } from '@fleet/testing';
import { startPlatform, type Platform } from '../../test/platform-fixture';

const toolsCallsSeenBy = (device: SimDevice, tool: string) =>
  device.observed.received.all.filter((m) => m.text.includes('"tools/call"') && m.text.includes(`"${tool}"`))
    .length;

// The esp-hi board's light getter and the firmware's Wi-Fi reconfiguration, whose warning is only in prose.
const ESP_HI_LIKE: BoardConfig = {
  ...BREAD_COMPACT_WIFI,
  boardName: 'esp-hi',
  boardType: 'esp-hi',
  boardTools: [
    {
      name: 'self.light.get_power',
      description: 'Whether the light is on.',
      properties: [],
      userOnly: false,
    },
    {
      name: 'self.system.reconfigure_wifi',
      description:
        'End this conversation and enter WiFi configuration mode. **CAUTION** You must ask the user to confirm this action.',
      properties: [],
      userOnly: false,
    },
  ],
};

describe('the gate, pre-flight and deadlines through the real broker', () => {
  let p: Platform;
  let requester: string;
  let approver: string;

  beforeAll(async () => {
    p = await startPlatform();
    requester = await p.operator('Requester');
    approver = await p.operator('Approver');
    await p.sql.query(
      `INSERT INTO webhook (id, url, secret, events, created_by)
       VALUES (gen_random_uuid(), 'http://127.0.0.1:9/hook', 's', '{approval.waiting}', $1)`,
      [requester],
    );
  });
  afterAll(() => p.close());

  const approve = async (callId: string, deviceId: string) => {
    await approvalOf(p.sql, callId); // opened once pre-flight has passed the call
    await p.sql.query(
      `UPDATE approval SET state = 'approved', decided_by = $2, decided_at = now() WHERE call_id = $1`,
      [callId, approver],
    );
    await p.calls.wake(callId, deviceId);
  };

  it('verifies a boolean read tool that answers "false", with the value in the evidence', async () => {
    const device = await p.device({ board: ESP_HI_LIKE, relayTools: undefined });
    const callId = await p.call({ device, tool: 'self.light.get_power', origin: 'llm' });
    const call = await p.waitVerdict(callId);
    expect(call).toMatchObject({ verdict: 'verified', result: { text: 'false', isError: false } });
    const effect = (await p.evidence(callId)).find((r) => r.stage === 'effect')!.payload;
    expect(effect).toMatchObject({ method: 'reply_is_effect', observed: 'false' });
  });

  it('ends a call approved after its delivery deadline expired, and never sends it', async () => {
    const device = await p.device();
    const callId = await p.call({
      device,
      tool: 'self.reboot',
      origin: 'operator',
      operatorId: requester,
      deliveryDeadlineMs: 1_000,
    });
    await p.waitFor(callId, 'awaiting_approval');
    await waitFor(
      async () =>
        (await p.sql.query('SELECT deadline_at < now() AS past FROM call WHERE id = $1', [callId])).rows[0]
          .past,
      { what: 'the delivery deadline to pass' },
    );
    await approve(callId, device.mac);
    const call = await p.waitVerdict(callId);
    expect(call).toMatchObject({ verdict: 'expired', verdict_reason: expect.stringContaining('deadline') });
    expect(toolsCallsSeenBy(device, 'self.reboot')).toBe(0);
    expect(device.bootCount).toBe(1);
  });

  it('ends an upgrade without url, or with a url outside the registry, at once: nobody is asked', async () => {
    const device = await p.device();
    const noUrl = await p.call({
      device,
      tool: 'self.upgrade_firmware',
      origin: 'operator',
      operatorId: requester,
    });
    const outside = await p.call({
      device,
      tool: 'self.upgrade_firmware',
      arguments: { url: `https://example.com/firmware/${'a'.repeat(64)}.bin` },
      origin: 'operator',
      operatorId: requester,
    });
    expect((await p.waitVerdict(noUrl)).verdict).toBe('invalid_arguments');
    expect((await p.waitVerdict(outside)).verdict).toBe('rejected');
    const { rows } = await p.sql.query('SELECT 1 FROM approval WHERE call_id = ANY($1::uuid[])', [
      [noUrl, outside],
    ]);
    // DESIGN §4: pre-flight refused first, so no approval was ever opened.
    expect(rows).toEqual([]);
    expect(toolsCallsSeenBy(device, 'self.upgrade_firmware')).toBe(0);
  });

  it('keeps a tool that asks for confirmation from the LLM and waits for an operator to approve it', async () => {
    const device = await p.device({ board: ESP_HI_LIKE, relayTools: undefined });
    const byLlm = await p.waitVerdict(
      await p.call({ device, tool: 'self.system.reconfigure_wifi', origin: 'llm' }),
    );
    expect(byLlm.verdict).toBe('rejected');
    expect(byLlm.verdict_reason).toContain("asks for the user's confirmation");
    const callId = await p.call({
      device,
      tool: 'self.system.reconfigure_wifi',
      origin: 'operator',
      operatorId: requester,
    });
    const shown = await waitFor(
      async () =>
        (
          await p.sql.query('SELECT preflight, tool_hash FROM approval WHERE call_id = $1', [callId])
        ).rows.find((r) => r.preflight !== null),
      { what: 'the approval to be shown with what pre-flight found' },
    );
    expect(shown.preflight).toMatchObject({ gate: expect.stringContaining('confirmation') });
    // The orchestrator alone tells people an approval waits, once pre-flight has passed it.
    const notice = await waitFor(
      async () =>
        (
          await p.sql.query(
            `SELECT payload FROM webhook_delivery WHERE event = 'approval.waiting' AND payload->>'callId' = $1`,
            [callId],
          )
        ).rows[0],
      { what: 'the approval.waiting notice' },
    );
    expect(notice.payload).toMatchObject({ callId, preflight: { gate: expect.any(String) } });
    expect(toolsCallsSeenBy(device, 'self.system.reconfigure_wifi')).toBe(0);
    await approve(callId, device.mac);
    expect((await p.waitVerdict(callId)).verdict).toBe('acknowledged');
    expect(toolsCallsSeenBy(device, 'self.system.reconfigure_wifi')).toBe(1);
  });

  it('shows a sent call as sent while it waits for the reply', async () => {
    const device = await p.device({ faults: { replyDelayMs: 1_500 } });
    const callId = await p.call({
      device,
      tool: 'self.get_device_status',
      origin: 'operator',
      operatorId: requester,
    });
    await p.waitFor(callId, 'sent');
    expect((await p.waitVerdict(callId)).verdict).toBe('verified');
  });
});
