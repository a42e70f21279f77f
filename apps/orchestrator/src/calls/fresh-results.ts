import type { Logger } from '@fleet/telemetry';
import type { DeviceRuntime } from '../devices/device-runtime';
import type { CallRecord } from './call-record';
import type { CallRepository } from './call-repository';

/**
 * A successful read, kept for the ordering rules ("status fresher than T", DESIGN §4) and, for the status, as the
 * device's last readback in the API's device detail (not evidence).
 */
export function rememberResult(
  ports: { calls: Pick<CallRepository, 'rememberStatus'>; logger: Logger },
  device: DeviceRuntime,
  call: Pick<CallRecord, 'id' | 'tool' | 'deviceId'>,
  text: string,
): void {
  device.fresh.set(call.tool, { at: Date.now(), callId: call.id, result: text });
  if (call.tool !== 'self.get_device_status') return;
  let status: unknown;
  try {
    status = JSON.parse(text);
  } catch {
    return;
  }
  ports.calls
    .rememberStatus(call.deviceId, status)
    .catch((err: unknown) => ports.logger.warn({ err }, 'cannot store the status readback'));
}
