import type { DeviceHost } from '../device/device-host';
import type { Runtime } from '../device/runtime';
import { postActivate } from './ota-http';

const ATTEMPTS = 10;
const ACTIVATED = 200;
const PENDING = 202;

/**
 * The activation loop of CheckNewVersion (xiaozhi §4.3): up to 10 POSTs to /activate; 200 ends it, 202 waits
 * 3 s, anything else 10 s. Without a challenge the call fails locally (and waits 10 s). The caller checks again.
 */
export async function activate(host: DeviceHost, rt: Runtime, challenge: string | undefined): Promise<void> {
  const t = host.config.timings;
  for (let i = 0; i < ATTEMPTS; i++) {
    const res = challenge === undefined ? undefined : await postActivate(host, rt, challenge);
    rt.ensureAlive();
    const status = res?.ok ? res.status : 0;
    host.events.emit('activation', status);
    if (status === ACTIVATED) return;
    await rt.sleep(status === PENDING ? t.activationPendingMs : t.activationErrorMs);
  }
}
