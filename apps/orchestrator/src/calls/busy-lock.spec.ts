import { createHash } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { overrideBusyLock, createDatabase } from '@fleet/db';
import { buildAppImage, type SimDevice } from '@fleet/device-sim';
import { deviceP2pTopic, encodeServerMessage, serverMessage } from '@fleet/protocol';
import { approvalOf, waitFor } from '@fleet/testing';
import { SERVICE_SECRET, startPlatform, type Platform } from '../../test/platform-fixture';

// DESIGN §4 busy lock, through the real broker: a simulated device in a voice session (the broker's voice:active)
// gets no reboot or upgrade until the session ends, unless a person lets it go with a reason.
describe('the busy lock', () => {
  let p: Platform;
  let voice: MqttClient;
  let requester: string;
  let approver: string;

  beforeAll(async () => {
    p = await startPlatform({ BUSY_RECHECK_MS: '100', REBOOT_VERIFY_MS: '5000', UPGRADE_VERIFY_MS: '8000' });
    voice = await mqtt.connectAsync(`mqtt://127.0.0.1:${p.broker.ports['mqtt']}`, {
      username: 'voice-worker',
      password: SERVICE_SECRET,
      clientId: 'busy-lock-test-voice',
      protocolVersion: 4,
    });
    requester = await p.operator('Requester');
    approver = await p.operator('Approver');
  });
  afterAll(async () => {
    await voice.endAsync();
    await p.close();
  });

  /** The device opens a session and the voice worker starts speaking to it (xiaozhi §2.2 `tts start`). */
  async function speaking(device: SimDevice): Promise<void> {
    const sessionId = await device.openVoiceSession({ mode: 'auto' });
    await voice.publishAsync(
      deviceP2pTopic(device.mac),
      encodeServerMessage(serverMessage.ttsStart(sessionId)),
    );
    await waitFor(() => device.state === 'speaking', { what: `${device.mac} speaking` });
  }

  async function approvedCall(
    device: SimDevice,
    tool: string,
    args: Record<string, unknown> = {},
    deliveryDeadlineMs?: number,
  ): Promise<string> {
    const callId = await p.call({
      device,
      tool,
      arguments: args,
      origin: 'operator',
      operatorId: requester,
      replyTimeoutMs: 1_000,
      ...(deliveryDeadlineMs ? { deliveryDeadlineMs } : {}),
    });
    await approvalOf(p.sql, callId); // opened once pre-flight has passed the call (DESIGN §4)
    await p.sql.query(
      `UPDATE approval SET state = 'approved', decided_by = $2, decided_at = now() WHERE call_id = $1`,
      [callId, approver],
    );
    await p.calls.wake(callId, device.mac);
    return callId;
  }

  async function held(callId: string): Promise<void> {
    await waitFor(
      async () =>
        (
          await p.sql.query('SELECT 1 FROM call_busy_hold WHERE call_id = $1 AND held_since IS NOT NULL', [
            callId,
          ])
        ).rowCount === 1,
      { what: `${callId} held for the conversation` },
    );
    await p.waitFor(callId, 'waiting_for_device');
  }

  async function busyLockRule(callId: string): Promise<Record<string, unknown>> {
    const decision = (await p.evidence(callId)).find((r) => r.stage === 'decision')!.payload;
    return (decision['rules'] as Record<string, unknown>[]).find((r) => r['rule'] === 'busy lock')!;
  }

  async function registerFirmware(version: string): Promise<string> {
    const image = buildAppImage({ version });
    const sha256 = createHash('sha256').update(image).digest('hex');
    await p.sql.query(
      'INSERT INTO firmware_image (sha256, size, data) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [sha256, image.length, image],
    );
    await p.sql.query(
      `INSERT INTO firmware (id, version, project_name, chip, sha256, size, boards, uploaded_by)
       VALUES (gen_random_uuid(), $1, 'xiaozhi', 'esp32s3', $2, $3, '{bread-compact-wifi}', $4) ON CONFLICT DO NOTHING`,
      [version, sha256, image.length, requester],
    );
    return `${p.firmwareBaseUrl}/firmware/${sha256}.bin`;
  }

  it('holds an upgrade approved while the device speaks, sends it once the conversation ends, and says how long it waited', async () => {
    const device = await p.device();
    await speaking(device);
    const url = await registerFirmware('2.5.0');
    const callId = await approvedCall(device, 'self.upgrade_firmware', { url });
    await held(callId);
    expect(device.state).toBe('speaking');
    expect(device.bootCount).toBe(1);

    await voice.publishAsync(
      deviceP2pTopic(device.mac),
      encodeServerMessage(serverMessage.ttsStop(device.sessionId)),
    );
    const endedAt = Date.now();
    await device.closeVoiceSession();

    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('verified');
    expect(device.version).toBe('2.5.0');
    const rule = await busyLockRule(callId);
    expect(rule).toMatchObject({ result: 'passed', lock: { state: 'waited' } });
    expect(rule['detail']).toMatch(/^waited (< 1|\d+) s for the conversation to end$/);
    const response = (await p.evidence(callId)).find((r) => r.stage === 'response')!.payload;
    expect(Date.parse(response['sentAt'] as string)).toBeGreaterThanOrEqual(endedAt - 1);
  });

  it('sends a reboot during the conversation once a person overrides the lock, citing them and their reason', async () => {
    const device = await p.device();
    await speaking(device);
    const callId = await approvedCall(device, 'self.reboot');
    await held(callId);
    await overrideBusyLock(
      createDatabase(p.sql),
      { id: callId, deviceId: device.mac },
      approver,
      'security fix',
    );
    await p.calls.wake(callId, device.mac);

    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('verified');
    expect(device.bootCount).toBe(2);
    expect(await busyLockRule(callId)).toMatchObject({
      result: 'approved',
      detail: `sent during a conversation: overridden by ${approver} (security fix)`,
      lock: { state: 'overridden', overriddenBy: approver, reason: 'security fix' },
    });
  });

  it('leaves a reboot undelivered when the conversation outlasts its deadline', async () => {
    const device = await p.device();
    await speaking(device);
    const callId = await approvedCall(device, 'self.reboot', {}, 1_500);
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('undelivered');
    expect(call.verdict_reason).toMatch(/stayed in a conversation until the deadline/);
    expect(device.bootCount).toBe(1);
    expect(await busyLockRule(callId)).toMatchObject({ result: 'refused' });
  });

  it('sends a reboot to an idle device at once, the decision saying it was not in a conversation', async () => {
    const device = await p.device();
    const callId = await approvedCall(device, 'self.reboot');
    expect((await p.waitVerdict(callId)).verdict).toBe('verified');
    expect(await busyLockRule(callId)).toMatchObject({
      result: 'passed',
      detail: 'the device was not in a conversation',
    });
    expect((await p.sql.query('SELECT 1 FROM call_busy_hold WHERE call_id = $1', [callId])).rowCount).toBe(0);
  });
  it('counts what the lock did, once per hold, and how many calls it holds now', async () => {
    const text = await (await fetch(`http://127.0.0.1:${p.orchestrators[0]!.ports.http}/metrics`)).text();
    const count = (outcome: string) =>
      Number(
        new RegExp(`^orchestrator_busy_lock_total\\{outcome="${outcome}"[^}]*\\} (\\d+)$`, 'm').exec(
          text,
        )?.[1],
      );
    // The cases above: three held (the upgrade, the overridden reboot, the reboot past its deadline).
    expect(count('hold')).toBe(3);
    expect(count('overridden')).toBe(1);
    expect(count('deadline_passed')).toBe(1);
    expect(count('free')).toBe(2); // the upgrade once its conversation ended, the idle device's reboot
    expect(text).toMatch(/^orchestrator_busy_lock_held_calls(\{[^}]*\})? 0$/m);
  });
});
