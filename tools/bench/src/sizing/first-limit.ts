/** What one step saw of the resources a larger fleet would exhaust. */
export interface ResourceUse {
  devices: number;
  /** Busy share (0..1) of all cores during power-on to all discovered, every process on the machine. */
  powerOnBusy: number;
  /** Check-ins the simulated firmware gave up on (its 10 s timeout) and retried. */
  checkInFailures: number;
  /** Bytes of memory the deployment's processes took per device after GC (broker, orchestrator, API). */
  bytesPerDevice: number;
  /** MemAvailable (proc(5) meminfo) with the whole fleet discovered. */
  memoryAvailable: number;
  /** The broker's open descriptors now and its soft limit. */
  brokerOpenFiles: number;
  brokerOpenFilesLimit: number | undefined;
}

export interface FirstLimit {
  resource: 'cpu' | 'memory' | 'open files' | 'none';
  /** Devices more than this step that the resource would still hold (memory, descriptors), when projected. */
  headroomDevices: number | undefined;
  reason: string;
}

/** A machine this busy while devices power on is saturated: check-ins queue and the firmware starts retrying. */
const SATURATED = 0.9;

/**
 * Pure: the first resource to run out at this step, or the nearest one by linear projection. CPU is what a
 * power-on storm exhausts (the cost is per device per second of the storm); memory and descriptors are held per
 * connected device, so their headroom is a count of devices.
 */
export function firstLimit(u: ResourceUse): FirstLimit {
  const busy = `${Math.round(u.powerOnBusy * 100)} % busy`;
  if (u.checkInFailures > 0 || u.powerOnBusy >= SATURATED) {
    return {
      resource: 'cpu',
      headroomDevices: undefined,
      reason: `cpu: ${busy} during power-on, ${u.checkInFailures} check-ins timed out and were retried`,
    };
  }
  const perDevice = u.devices > 0 ? u.brokerOpenFiles / u.devices : 1;
  const files =
    u.brokerOpenFilesLimit === undefined
      ? Infinity
      : Math.floor((u.brokerOpenFilesLimit - u.brokerOpenFiles) / Math.max(1, perDevice));
  const memory = u.bytesPerDevice > 0 ? Math.floor(u.memoryAvailable / u.bytesPerDevice) : Infinity;
  if (files <= 0) return { resource: 'open files', headroomDevices: 0, reason: 'open files: at the limit' };
  if (memory <= 0) return { resource: 'memory', headroomDevices: 0, reason: 'memory: none available' };
  if (files === Infinity && memory === Infinity) {
    return { resource: 'none', headroomDevices: undefined, reason: `none seen (${busy} during power-on)` };
  }
  const [resource, headroom] =
    files < memory ? (['open files', files] as const) : (['memory', memory] as const);
  return {
    resource,
    headroomDevices: headroom,
    reason: `${resource} next: room for about ${headroom.toLocaleString('en')} more devices (${busy} during power-on)`,
  };
}
