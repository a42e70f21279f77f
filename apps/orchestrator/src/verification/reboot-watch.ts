import type { DeviceRuntime } from '../devices/device-runtime';
import type { CallRepository } from '../calls/call-repository';

export interface RebootObservation {
  /** A boot check-in of the bound identity after the call went out. */
  boot?: { at: Date; version: string | null; otaLabel: string | null };
  /** The device is online again on another connection than the one the call went out on. */
  reconnected: boolean;
  connectionId?: string;
}

/**
 * What the platform can see of a reboot (DESIGN §5, xiaozhi §5): a boot check-in (OTA POST) and a new MQTT
 * connection. A connection flap has the second without the first, and is not a reboot.
 */
export async function observeReboot(
  calls: Pick<CallRepository, 'bootsSince'>,
  device: DeviceRuntime,
  sentAt: Date,
  sentOn: string | null,
  boundClientId: string,
): Promise<RebootObservation> {
  const boots = await calls.bootsSince(device.mac, sentAt, boundClientId);
  const reconnected =
    device.online &&
    device.connectionId !== undefined &&
    device.connectionId !== sentOn &&
    (device.onlineAt?.getTime() ?? 0) >= sentAt.getTime();
  return {
    ...(boots.length ? { boot: boots[boots.length - 1]! } : {}),
    reconnected,
    ...(reconnected ? { connectionId: device.connectionId! } : {}),
  };
}

/**
 * Waits until `check` settles or the deadline passes, re-checking on every presence change of the device and
 * once a second (a boot report lands in Postgres without a presence change).
 */
export function waitForEffect<T>(
  device: DeviceRuntime,
  deadline: Date,
  check: () => Promise<T | undefined>,
): Promise<T | undefined> {
  return new Promise((resolve) => {
    let done = false;
    let running = false;
    let again = false;
    const finish = (value: T | undefined) => {
      if (done) return;
      done = true;
      clearInterval(tick);
      clearTimeout(timeout);
      unsubscribe();
      resolve(value);
    };
    const run = () => {
      if (done) return;
      if (running) {
        again = true;
        return;
      }
      running = true;
      check()
        .then((value) => {
          if (value !== undefined) finish(value);
        })
        .catch(() => undefined)
        .finally(() => {
          running = false;
          if (again) {
            again = false;
            run();
          }
        });
    };
    const unsubscribe = device.onPresence(run);
    const tick = setInterval(run, 1_000);
    const timeout = setTimeout(() => finish(undefined), Math.max(0, deadline.getTime() - Date.now()));
    run();
  });
}
