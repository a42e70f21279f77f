import { heldUntil, type QuietHours } from '@fleet/domain';

/** One check of the gate, as the decision row lists rules (libs/domain policyRuleResultSchema). */
export interface GateRule {
  rule: string;
  result: 'passed' | 'refused' | 'not_applicable';
  detail: string;
}

export interface GroupQuiet {
  name: string;
  timeZone: string;
  quietHours: QuietHours;
}

/**
 * The content and time part of an announcement's gate (pure): the size limit refuses; quiet hours hold it back to
 * the end of the latest window its device's groups are in, each in the group's own time zone.
 */
export function checkAnnouncement(
  text: string,
  maxBytes: number,
  groups: readonly GroupQuiet[],
  now: Date,
):
  | { ok: false; rule: GateRule }
  | { ok: true; rules: GateRule[]; hold: { until: Date; group: string } | undefined } {
  const bytes = Buffer.byteLength(text, 'utf8');
  const size: GateRule = {
    rule: 'size',
    result: bytes <= maxBytes ? 'passed' : 'refused',
    detail: `${bytes} of at most ${maxBytes} bytes`,
  };
  if (size.result === 'refused') return { ok: false, rule: size };
  const hold = heldUntil(groups, now);
  const quiet: GateRule = hold
    ? {
        rule: 'quiet_hours',
        result: 'passed',
        detail: `held back by the quiet hours of group ${hold.group} until ${hold.until.toISOString()}`,
      }
    : {
        rule: 'quiet_hours',
        result: groups.length ? 'passed' : 'not_applicable',
        detail: groups.length ? 'outside every group quiet hours' : 'no group of the device has quiet hours',
      };
  return { ok: true, rules: [size, quiet], hold };
}
