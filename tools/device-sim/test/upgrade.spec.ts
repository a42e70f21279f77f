import { waitFor } from '@fleet/testing';
import { buildAppImage, FAST_TIMINGS, type SimDevice } from '../src';
import { pingRequest, replyWithId, resultText, startHarness, toolCall, type Harness } from './harness';

const NEW_IMAGE = buildAppImage({ version: '2.5.0' });

describe('self.upgrade_firmware on a simulated device', () => {
  let h: Harness;
  let device: SimDevice;

  beforeEach(async () => {
    h = await startHarness();
    device = h.device();
    device.start();
    await h.waitOnline(device);
  });

  afterEach(() => h.close());

  it('downloads a good image, reboots into the other slot and reports the new version; no reply ever', async () => {
    const url = h.ota.serveFirmware('fw-2.5.0.bin', NEW_IMAGE);
    await h.sendMcp(device, toolCall(1, 'self.upgrade_firmware', { url }));
    await h.waitOnline(device, 2);
    expect(h.ota.downloads).toHaveLength(1);
    expect(device).toMatchObject({ version: '2.5.0', otaLabel: 'ota_1' });
    const checkIn = h.ota.checkIns[1]!;
    expect(checkIn.headers['user-agent']).toBe('bread-compact-wifi/2.5.0');
    expect(checkIn.body).toContain('"version":"2.5.0"');
    expect(checkIn.body).toContain('"ota":{"label":"ota_1"}');
    await h.sendMcp(device, pingRequest(2));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 2));
    expect(replyWithId(h.mcpPayloads(device), 1)).toBeUndefined();
    // The next boot keeps it: it confirmed itself with a successful check-in.
    device.reboot();
    await h.waitOnline(device, 3);
    expect(device).toMatchObject({ version: '2.5.0', otaLabel: 'ota_1' });
  });

  it('answers a late "true" after a failed download, before anything queued behind it', async () => {
    const url = h.ota.serveFirmware('missing.bin', NEW_IMAGE, { status: 404 });
    const sent = Date.now();
    await h.sendMcp(device, toolCall(1, 'self.upgrade_firmware', { url }));
    await h.sendMcp(device, toolCall(2, 'self.get_device_status'));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 2), { what: 'the status behind the upgrade' });
    const t = FAST_TIMINGS;
    expect(Date.now() - sent).toBeGreaterThanOrEqual(
      t.upgradeAlertMs + t.upgradePrepareMs + t.upgradeFailedAlertMs,
    );
    const payloads = h.mcpPayloads(device);
    expect(payloads.map((p) => /"id":(\d+)/.exec(p)?.[1])).toEqual(['1', '2']);
    expect(resultText(payloads[0]!)).toBe('true');
    expect(device).toMatchObject({ version: '2.4.2', otaLabel: 'ota_0', bootCount: 1 });
  });

  it('refuses an image served without Content-Length (chunked)', async () => {
    const url = h.ota.serveFirmware('chunked.bin', NEW_IMAGE, { chunked: true });
    const failed = device.next('upgrade', { filter: (u) => u.phase === 'failed' });
    await h.sendMcp(device, toolCall(1, 'self.upgrade_firmware', { url }));
    expect((await failed)[0]).toMatchObject({ reason: 'no Content-Length' });
    await waitFor(() => replyWithId(h.mcpPayloads(device), 1));
    expect(device.version).toBe('2.4.2');
  });

  it('refuses an image without a readable app descriptor', async () => {
    const url = h.ota.serveFirmware('garbage.bin', Buffer.alloc(4096, 7));
    await h.sendMcp(device, toolCall(1, 'self.upgrade_firmware', { url }));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 1));
    expect(device).toMatchObject({ version: '2.4.2', bootCount: 1 });
  });

  it('refuses, as esp_ota_end does, an image with a broken checksum and one built for another chip', async () => {
    const broken = Buffer.from(NEW_IMAGE);
    broken[1000]! ^= 0x01; // a code byte: the checksum no longer matches
    const failures: string[] = [];
    device.on('upgrade', (e) => {
      if (e.phase === 'failed') failures.push(e.reason);
    });
    await h.sendMcp(
      device,
      toolCall(1, 'self.upgrade_firmware', { url: h.ota.serveFirmware('bad.bin', broken) }),
    );
    await waitFor(() => replyWithId(h.mcpPayloads(device), 1));
    const c3 = buildAppImage({ version: '2.5.0' }, 4096, { chipId: 5 });
    await h.sendMcp(device, toolCall(2, 'self.upgrade_firmware', { url: h.ota.serveFirmware('c3.bin', c3) }));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 2));
    expect(failures).toEqual([expect.stringMatching(/checksum/), expect.stringMatching(/esp32c3/)]);
    expect(device).toMatchObject({ version: '2.4.2', bootCount: 1 });
  });

  it('keeps the old version when the fault knob fails the download', async () => {
    device.setFaults({ failUpgrades: true });
    const url = h.ota.serveFirmware('fw.bin', NEW_IMAGE);
    await h.sendMcp(device, toolCall(1, 'self.upgrade_firmware', { url }));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 1));
    expect(h.ota.downloads).toHaveLength(0);
    expect(device.version).toBe('2.4.2');
  });

  it('rolls back an image that crashes before its first check-in: the old version comes back', async () => {
    device.setFaults({ rollbackUpgrades: 'before-check-in' });
    const rolledBack = device.next('rolled-back');
    const url = h.ota.serveFirmware('fw.bin', NEW_IMAGE);
    await h.sendMcp(device, toolCall(1, 'self.upgrade_firmware', { url }));
    expect(await rolledBack).toEqual(['2.4.2']);
    await h.waitOnline(device, 2);
    expect(h.ota.checkIns.map((c) => c.headers['user-agent'])).toEqual([
      'bread-compact-wifi/2.4.2',
      'bread-compact-wifi/2.4.2',
    ]);
    expect(device).toMatchObject({ version: '2.4.2', otaLabel: 'ota_0', bootCount: 3 });
  });

  it('rolls back an image that crashes right after its first check-in: the platform sees it, then the old one', async () => {
    device.setFaults({ rollbackUpgrades: 'after-check-in' });
    const url = h.ota.serveFirmware('fw.bin', NEW_IMAGE);
    await h.sendMcp(device, toolCall(1, 'self.upgrade_firmware', { url }));
    await h.waitOnline(device, 2);
    expect(h.ota.checkIns.map((c) => /"ota":\{"label":"(ota_\d)"\}/.exec(c.body)?.[1])).toEqual([
      'ota_0',
      'ota_1',
      'ota_0',
    ]);
    expect(h.ota.checkIns[1]!.headers['user-agent']).toBe('bread-compact-wifi/2.5.0');
    expect(device).toMatchObject({ version: '2.4.2', otaLabel: 'ota_0' });
    expect(device.stats).toMatchObject({ crashes: 1, rollbacks: 1 });
  });

  it('runs an image that never confirms itself until a later reboot, which rolls it back', async () => {
    device.setFaults({ rollbackUpgrades: 'unconfirmed' });
    const url = h.ota.serveFirmware('fw.bin', NEW_IMAGE);
    await h.sendMcp(device, toolCall(1, 'self.upgrade_firmware', { url }));
    await h.waitOnline(device, 2);
    expect(device).toMatchObject({ version: '2.5.0', otaLabel: 'ota_1' });
    device.reboot();
    await h.waitOnline(device, 3);
    expect(device).toMatchObject({ version: '2.4.2', otaLabel: 'ota_0' });
    expect(h.ota.checkIns.map((c) => c.headers['user-agent'])).toEqual([
      'bread-compact-wifi/2.4.2',
      'bread-compact-wifi/2.5.0',
      'bread-compact-wifi/2.4.2',
    ]);
    expect(device.stats).toMatchObject({ rollbacks: 1, crashes: 0 });
  });
});

describe('an upgrade offered in the OTA answer', () => {
  let h: Harness;

  afterEach(() => h.close());

  it('installs during boot and checks in again with the new version and slot', async () => {
    let url = '';
    h = await startHarness({
      answer: (checkIn) =>
        checkIn.headers['user-agent'] === 'bread-compact-wifi/2.4.2'
          ? { firmware: { version: '2.5.0', url } }
          : undefined,
    });
    url = h.ota.serveFirmware('fw.bin', NEW_IMAGE);
    const device = h.device();
    device.start();
    await h.waitOnline(device);
    expect(device.mqttConnectCount).toBe(1);
    expect(device).toMatchObject({ version: '2.5.0', otaLabel: 'ota_1', bootCount: 2 });
    expect(h.ota.checkIns).toHaveLength(2);
  });

  it('reinstalls the same version only with force:1', async () => {
    let url = '';
    let offers = 0;
    h = await startHarness({
      answer: () =>
        offers++ === 0
          ? { firmware: { version: '2.4.2', url, force: true } }
          : { firmware: { version: '2.4.2', url } },
    });
    url = h.ota.serveFirmware('same.bin', buildAppImage({ version: '2.4.2' }));
    const device = h.device();
    device.start();
    await h.waitOnline(device);
    expect(device).toMatchObject({ version: '2.4.2', otaLabel: 'ota_1', bootCount: 2 });
    expect(h.ota.downloads).toHaveLength(1);
  });
});
