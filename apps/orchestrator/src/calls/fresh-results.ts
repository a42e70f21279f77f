import type { DeviceRuntime } from '../devices/device-runtime';
import type { CallRecord } from './call-record';

/**
 * A successful read, kept for the ordering rules ("status fresher than T", DESIGN §4). Returns the status as the
 * device reported it when the read was `self.get_device_status`, for the device's last readback in the API's
 * device detail (not evidence), which the call's seal writes.
 */
export function rememberResult(
  device: DeviceRuntime,
  call: Pick<CallRecord, 'id' | 'tool'>,
  text: string,
): unknown {
  device.fresh.set(call.tool, { at: Date.now(), callId: call.id, result: text });
  if (call.tool !== 'self.get_device_status') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
