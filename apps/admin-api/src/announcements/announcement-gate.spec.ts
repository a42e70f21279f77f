import { checkAnnouncement, secondPersonRule } from './announcement-gate';

const now = new Date('2026-12-07T23:30:00Z');

describe('the announcement gate', () => {
  it('refuses a text over the size limit in UTF-8 bytes, not characters', () => {
    const result = checkAnnouncement('通知'.repeat(10), 59, [], now); // 60 bytes
    expect(result).toMatchObject({ ok: false, rule: { rule: 'size', result: 'refused' } });
    expect(checkAnnouncement('通知'.repeat(10), 60, [], now).ok).toBe(true);
  });

  it('holds an announcement in quiet hours to their end, and says which group held it', () => {
    const result = checkAnnouncement(
      'hello',
      512,
      [{ name: 'berlin', timeZone: 'Europe/Berlin', quietHours: { from: '22:00', to: '07:00' } }],
      now,
    );
    // 00:30 in Berlin (UTC+1 in December): held until 07:00 local, 06:00 UTC.
    expect(result).toMatchObject({
      ok: true,
      hold: { until: new Date('2026-12-08T06:00:00Z'), group: 'berlin' },
      rules: [
        { rule: 'size', result: 'passed' },
        { rule: 'quiet_hours', result: 'passed', detail: expect.stringMatching(/berlin until/) },
      ],
    });
  });

  it('holds nothing outside quiet hours', () => {
    const result = checkAnnouncement(
      'hello',
      512,
      [{ name: 'day', timeZone: 'UTC', quietHours: { from: '08:00', to: '09:00' } }],
      now,
    );
    expect(result).toMatchObject({ ok: true, hold: undefined });
  });
});

describe("an admin's rule for a second person", () => {
  it('asks for one above the device count, and outside the set hours in their time zone', () => {
    expect(secondPersonRule(501, { aboveDevices: 500, timeZone: 'UTC' }, now)).toMatchObject({
      result: 'awaiting_approval',
      detail: 'to 501 devices, more than 500',
    });
    expect(secondPersonRule(500, { aboveDevices: 500, timeZone: 'UTC' }, now).result).toBe('passed');
    // 23:30 UTC is 07:30 in Shanghai: inside 07:00-20:00 there, outside 08:00-20:00.
    const hours = (from: string) => ({ hours: { from, to: '20:00' }, timeZone: 'Asia/Shanghai' });
    expect(secondPersonRule(1, hours('07:00'), now).result).toBe('passed');
    expect(secondPersonRule(1, hours('08:00'), now)).toMatchObject({
      result: 'awaiting_approval',
      detail: 'asked outside 08:00-20:00 Asia/Shanghai',
    });
  });

  it('does not apply when the admin set nothing', () => {
    expect(secondPersonRule(10_000, { timeZone: 'UTC' }, now).result).toBe('not_applicable');
  });
});
