import type { DeviceHost } from '../device/device-host';
import { rebootDevice } from '../device/reboot';
import type { Runtime } from '../device/runtime';
import { downloadFirmware } from './download';
import { writeNextSlot } from './flash-slots';

/**
 * Application::UpgradeFirmware (xiaozhi §3.4 #8), on the main task: close the session, 3 s alert, state
 * `upgrading`, 1 s, download, write the other slot, 1 s, Reboot() (never returns). On failure: the "upgrade
 * failed" alert blocks 3 s more and the old firmware keeps running; the caller's queue then carries on.
 */
export async function upgradeFirmware(host: DeviceHost, rt: Runtime, url: string): Promise<boolean> {
  const t = host.config.timings;
  if (rt.hasChannel && rt.channel.isOpen()) rt.channel.close(true);
  host.events.emit('upgrade', { phase: 'started', url });
  await rt.sleep(t.upgradeAlertMs);
  const before = rt.state;
  rt.setState('upgrading');
  await rt.sleep(t.upgradePrepareMs);
  const faults = host.faults.current;
  const download = faults.failUpgrades
    ? { ok: false as const, reason: 'download failed (fault knob)' }
    : await downloadFirmware(url, t.httpTimeoutMs, rt.signal, host.config.profile.config.chip.modelName);
  rt.ensureAlive();
  if (!download.ok) {
    host.stats.upgradesFailed++;
    host.events.emit('upgrade', { phase: 'failed', url, reason: download.reason });
    rt.setState(before);
    await rt.sleep(t.upgradeFailedAlertMs);
    return false;
  }
  await rt.sleep(t.flashWriteMs);
  const crash = faults.rollbackUpgrades;
  host.nvs.flash = writeNextSlot(host.nvs.flash, { ...download.image, ...(crash ? { crash } : {}) });
  host.stats.upgradesWritten++;
  host.events.emit('upgrade', {
    phase: 'written',
    url,
    version: download.image.version,
    slot: host.nvs.flash.boot,
  });
  await rt.sleep(t.upgradeRebootDelayMs);
  return rebootDevice(host, rt);
}
