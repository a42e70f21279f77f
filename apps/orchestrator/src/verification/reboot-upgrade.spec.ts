import { approvalOf } from '@fleet/testing';
import { createHash } from 'node:crypto';
import { replacedVersion, versionSignals } from '@fleet/db';
import { buildAppImage, type SimDevice } from '@fleet/device-sim';
import { releaseHealth } from '@fleet/domain';
import { startPlatform, type Platform } from '../../test/platform-fixture';

describe('reboot and upgrade verification', () => {
  let p: Platform;
  let requester: string;
  let approver: string;

  beforeAll(async () => {
    // Short windows so that the cases that end at their deadline end quickly.
    p = await startPlatform({ REBOOT_VERIFY_MS: '3000', UPGRADE_VERIFY_MS: '6000' });
    requester = await p.operator('Requester');
    approver = await p.operator('Approver');
  });
  afterAll(() => p.close());

  async function approvedCall(
    device: SimDevice,
    tool: string,
    args: Record<string, unknown> = {},
  ): Promise<string> {
    const callId = await p.call({
      device,
      tool,
      arguments: args,
      origin: 'operator',
      operatorId: requester,
      replyTimeoutMs: 1_000,
    });
    await approvalOf(p.sql, callId); // opened once pre-flight has passed the call
    await p.sql.query(
      `UPDATE approval SET state = 'approved', decided_by = $2, decided_at = now() WHERE call_id = $1`,
      [callId, approver],
    );
    await p.calls.wake(callId, device.mac);
    return callId;
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

  it('leaves a reboot no_response when the device only flaps its connection, with no boot check-in', async () => {
    const device = await p.device();
    device.setFaults({ lie: true, dropReplies: 1 }); // the reboot does nothing and says nothing
    const callId = await approvedCall(device, 'self.reboot');
    await p.waitFor(callId, 'verifying');
    device.flap();
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('no_response');
    expect(call.verdict_reason).toContain('flap');
    expect(device.bootCount).toBe(1);
  });

  it('verifies a good upgrade by the new version after the reboot', async () => {
    const device = await p.device();
    const url = await registerFirmware('2.4.3');
    const callId = await approvedCall(device, 'self.upgrade_firmware', { url });
    const call = await p.waitVerdict(callId);
    expect(call).toMatchObject({ verdict: 'verified', verdict_reason: 'the device came back running 2.4.3' });
    expect(device.version).toBe('2.4.3');
    expect((await p.evidence(callId)).find((r) => r.stage === 'effect')!.payload).toMatchObject({
      method: 'version_observed',
      expected: '2.4.3',
    });
  });

  it('calls an upgrade that rolls back effect_mismatch: the old version comes back', async () => {
    const device = await p.device({ faults: { rollbackUpgrades: 'before-check-in' } });
    const url = await registerFirmware('2.4.4');
    const callId = await approvedCall(device, 'self.upgrade_firmware', { url });
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('effect_mismatch');
    expect(call.verdict_reason).toContain('not 2.4.4');
    expect(device.version).toBe('2.4.2');
  });

  it('calls an upgrade that did not take effect_mismatch, saying only what was seen: "true", no reboot, the old version', async () => {
    const device = await p.device({ faults: { failUpgrades: true } });
    const url = await registerFirmware('2.4.5');
    const callId = await approvedCall(device, 'self.upgrade_firmware', { url });
    const call = await p.waitVerdict(callId);
    expect(call).toMatchObject({
      verdict: 'effect_mismatch',
      verdict_reason: 'the device answered "true" but did not reboot: it still reports 2.4.2, not 2.4.5',
    });
    expect(device.bootCount).toBe(1);
  });

  it('counts release health from what the simulated devices did: one verified, one rolled back before check-in', async () => {
    const startedAt = new Date();
    const url = await registerFirmware('2.6.0');
    const good = await p.device();
    const rollsBack = await p.device({ faults: { rollbackUpgrades: 'before-check-in' } });
    const calls = [
      await approvedCall(good, 'self.upgrade_firmware', { url }),
      await approvedCall(rollsBack, 'self.upgrade_firmware', { url }),
    ];
    const verdicts = await Promise.all(calls.map(async (id) => (await p.waitVerdict(id)).verdict));
    expect(verdicts).toEqual(['verified', 'effect_mismatch']);

    const window = { since: startedAt, until: new Date(), regressionWithinHours: 24 };
    expect(await replacedVersion(p.sql, '2.6.0', window)).toEqual({
      baseline: '2.4.2',
      boards: ['bread-compact-wifi'],
    });
    const signals = await versionSignals(p.sql, '2.6.0', ['bread-compact-wifi'], window);
    expect(signals).toMatchObject({
      devices: 1, // only the good one ever ran it
      upgrades: { verified: 1, effectMismatch: 1, failed: 0 },
      regressions: 0,
      reconnects: 0, // one connection after its boot into 2.6.0
    });
    const health = releaseHealth(signals, null);
    expect(health.status).toBe('degraded');
    expect(health.findings.map((f) => f.signal)).toEqual(['effect_mismatch_share']);
    expect(health.release.upgrades?.effectMismatchShare).toBe(0.5);
  });

  it('rejects an upgrade from a URL that is not in the firmware registry before anyone is asked', async () => {
    const device = await p.device();
    const callId = await p.call({
      device,
      tool: 'self.upgrade_firmware',
      arguments: { url: 'http://example.com/evil.bin' },
      origin: 'operator',
      operatorId: requester,
    });
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('rejected');
    expect(call.verdict_reason).toContain('registry');
    expect((await p.sql.query('SELECT 1 FROM approval WHERE call_id = $1', [callId])).rowCount).toBe(0);
  });
});
