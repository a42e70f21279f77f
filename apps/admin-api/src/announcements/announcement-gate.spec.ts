import { checkAnnouncement } from './announcement-gate';

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
