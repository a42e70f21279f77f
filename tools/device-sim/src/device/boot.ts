import { crashesAt } from '../firmware/flash-slots';
import { checkNewVersion } from '../ota/check-new-version';
import { fetchHttp } from '../util/http';
import { crash } from './crash';
import type { DeviceHost } from './device-host';
import { DeviceMqtt } from './mqtt-protocol';
import type { Runtime } from './runtime';

/**
 * One power-on up to `idle` (xiaozhi §5): the board restores its backlight, the network comes up, then the
 * activation task runs the assets check, the OTA check-in (with upgrade and activation) and starts MQTT.
 * No message is published on connect.
 */
export async function bootSequence(host: DeviceHost, rt: Runtime): Promise<void> {
  rt.backlight.restore(host.nvs.brightness);
  await rt.sleep(host.config.timings.bootMs);
  if (crashesAt(host.nvs.flash, 'before-check-in')) return crash(host, rt, 'new image crashed at boot');
  await fetchAssets(host, rt);
  const answer = await checkNewVersion(host, rt);
  if (answer?.hasWebsocket && !answer.mqtt) {
    host.events.emit(
      'warning',
      'the OTA answer chose WebSocket, which the simulator does not speak; using MQTT',
    );
  }
  rt.mqtt = new DeviceMqtt(host, rt);
  rt.mqtt.start();
  rt.setState('idle');
}

/** CheckAssetsVersion: a download URL set by self.assets.set_download_url is fetched once, then erased. */
async function fetchAssets(host: DeviceHost, rt: Runtime): Promise<void> {
  const url = host.nvs.assetsDownloadUrl;
  if (url === undefined) return;
  delete host.nvs.assetsDownloadUrl;
  try {
    await fetchHttp(
      { method: 'GET', url, timeoutMs: host.config.timings.httpTimeoutMs, signal: rt.signal },
      16 << 20,
    );
  } catch (err) {
    rt.ensureAlive();
    host.events.emit('warning', `assets download failed: ${(err as Error).message}`);
  }
}
