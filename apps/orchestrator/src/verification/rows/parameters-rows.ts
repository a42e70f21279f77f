import type { AnnouncementArguments, ParametersPayload } from '@fleet/domain';
import type { CallRecord } from '../../calls/call-record';

// Parameters rows (DESIGN §1, §4: the arguments as asked, the device's schema check, what the firmware would
// do with them, the operator limits; once sent, what went on the wire).

export function checkedParameters(
  args: Record<string, unknown>,
  check: { ok: boolean; errors: string[]; firmwareWouldDo: ParametersPayload['firmwareWouldDo'] },
  limits: { group: string; rule: string; ok: boolean }[],
): ParametersPayload {
  return {
    arguments: args,
    validation: { ok: check.ok, errors: check.errors },
    firmwareWouldDo: check.firmwareWouldDo,
    limits,
  };
}

/** The checked row with the request as it left (a tools/call, or the `system` reboot message). */
export function sentParameters(checked: unknown, sent: unknown): ParametersPayload {
  return { ...(checked as ParametersPayload), sent };
}

export function parametersNotChecked(call: CallRecord, why: string): ParametersPayload {
  return {
    arguments: call.arguments,
    validation: { ok: false, errors: [], skipped: why },
    firmwareWouldDo: [],
    limits: [],
  };
}

/** An announcement's: its content is part of the proof (what was said), with its size in bytes. */
export function announcementParameters(
  args: AnnouncementArguments,
  sentAlert: unknown,
  limits: ParametersPayload['limits'] = [],
): ParametersPayload {
  return {
    arguments: args,
    validation: { ok: true, errors: [] },
    firmwareWouldDo: [],
    limits,
    ...(sentAlert === undefined ? {} : { sent: sentAlert }),
    bytes: Buffer.byteLength(args.text, 'utf8'),
  };
}
