import { heldUntil, quietHoursEnd, type QuietHours } from '@fleet/domain';

/** One check of the gate, as the decision row lists rules (libs/domain policyRuleResultSchema). */
export interface GateRule {
  rule: string;
  result: 'passed' | 'refused' | 'not_applicable' | 'awaiting_approval';
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

/** An admin's rule for a second person (ANNOUNCE_APPROVAL_*). */
export interface SecondPersonRule {
  aboveDevices?: number | undefined;
  hours?: QuietHours | undefined;
  timeZone: string;
}

/** Whether an announcement to `devices` devices asked at `now` waits for another person, and why. */
export function secondPersonRule(devices: number, rule: SecondPersonRule, now: Date): GateRule {
  const reasons: string[] = [];
  if (rule.aboveDevices !== undefined && devices > rule.aboveDevices)
    reasons.push(`to ${devices} devices, more than ${rule.aboveDevices}`);
  // Inside the set hours is where quietHoursEnd finds an end: the same window arithmetic.
  if (rule.hours && !quietHoursEnd(rule.hours, rule.timeZone, now))
    reasons.push(`asked outside ${rule.hours.from}-${rule.hours.to} ${rule.timeZone}`);
  return reasons.length
    ? { rule: 'second_person', result: 'awaiting_approval', detail: reasons.join('; ') }
    : {
        rule: 'second_person',
        result: rule.aboveDevices === undefined && !rule.hours ? 'not_applicable' : 'passed',
        detail: 'within the count and hours an admin set',
      };
}
