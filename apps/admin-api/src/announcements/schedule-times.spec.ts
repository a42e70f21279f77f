import { cronProblem, nextRun } from './schedule-times';

describe('schedule times', () => {
  it('runs a daily cron at its hour in the schedule time zone', () => {
    const next = nextRun(
      { cron: '0 9 * * *', timeZone: 'Asia/Shanghai' },
      new Date('2026-12-07T02:00:00Z'), // 10:00 in Shanghai: today's nine has passed
    );
    expect(next?.toISOString()).toBe('2026-12-08T01:00:00.000Z');
  });

  it('takes seconds as a sixth field, and a one-time run only while it is ahead', () => {
    const after = new Date('2026-12-07T02:00:01Z');
    expect(nextRun({ cron: '*/2 * * * * *', timeZone: 'UTC' }, after)?.toISOString()).toBe(
      '2026-12-07T02:00:02.000Z',
    );
    expect(nextRun({ runAt: new Date('2026-12-07T03:00:00Z') }, after)?.toISOString()).toBe(
      '2026-12-07T03:00:00.000Z',
    );
    expect(nextRun({ runAt: new Date('2026-12-07T01:00:00Z') }, after)).toBeNull();
  });

  it('names what is wrong with an expression it cannot read', () => {
    expect(cronProblem('0 9 * *', 'UTC')).toMatch(/5 fields/);
    expect(cronProblem('0 99 * * *', 'UTC')).toBeDefined();
    expect(cronProblem('0 9 * * mon-fri', 'Europe/Berlin')).toBeUndefined();
  });
});
