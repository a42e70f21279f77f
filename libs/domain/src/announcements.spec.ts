import { heldUntil, quietHoursEnd } from './announcements';

describe('quiet hours', () => {
  it('ends a window that runs past midnight at its end the next morning, in the group time zone', () => {
    // 23:30 in Shanghai (UTC+8) is 15:30 UTC; the window ends at 07:00 local, 23:00 UTC.
    const end = quietHoursEnd(
      { from: '22:00', to: '07:00' },
      'Asia/Shanghai',
      new Date('2026-12-07T15:30:20Z'),
    );
    expect(end?.toISOString()).toBe('2026-12-07T23:00:00.000Z');
  });

  it('holds nothing outside the window, nor for a window that starts and ends at the same minute', () => {
    expect(
      quietHoursEnd({ from: '22:00', to: '07:00' }, 'Asia/Shanghai', new Date('2026-12-07T04:00:00Z')),
    ).toBeUndefined();
    expect(quietHoursEnd({ from: '09:00', to: '09:00' }, 'UTC', new Date('2026-12-07T09:00:00Z'))).toBe(
      undefined,
    );
  });

  it('waits for the latest end among the groups that hold the device', () => {
    const held = heldUntil(
      [
        { name: 'day', timeZone: 'UTC', quietHours: { from: '12:00', to: '13:00' } },
        { name: 'lunch', timeZone: 'UTC', quietHours: { from: '11:00', to: '14:00' } },
        { name: 'night', timeZone: 'UTC', quietHours: { from: '22:00', to: '06:00' } },
      ],
      new Date('2026-12-07T12:15:00Z'),
    );
    expect(held).toEqual({ until: new Date('2026-12-07T14:00:00Z'), group: 'lunch' });
  });
});
