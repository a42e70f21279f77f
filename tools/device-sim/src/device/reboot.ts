import type { DeviceHost } from './device-host';
import type { Runtime } from './runtime';

/**
 * Application::Reboot (xiaozhi §3.4 #7, §5): close the audio channel (goodbye if a session is open), destroy the
 * protocol (esp-mqtt stop sends DISCONNECT), wait 1 s, esp_restart(). Never returns to its caller.
 */
export async function rebootDevice(host: DeviceHost, rt: Runtime): Promise<never> {
  if (rt.hasChannel && rt.channel.isOpen()) rt.channel.close(true);
  const mqtt = rt.mqtt;
  rt.mqtt = undefined;
  await mqtt?.close();
  await rt.sleep(host.config.timings.rebootShutdownMs);
  host.restart('reboot');
  return rt.halt();
}
