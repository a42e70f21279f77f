import type { DeviceHost } from './device-host';
import type { Runtime } from './runtime';

/** An uncaught exception or abort(): the chip restarts where it stands, nothing is said on the network. */
export function crash(host: DeviceHost, rt: Runtime, reason: string): Promise<never> {
  host.restart('crash', reason);
  return rt.halt();
}
