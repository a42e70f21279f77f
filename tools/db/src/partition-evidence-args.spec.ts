import { describePartitionRun, parsePartitionArgs } from './partition-evidence-args';

describe('the flags of db:partition-evidence', () => {
  it('takes months ahead, a lock timeout and extend-only', () => {
    expect(parsePartitionArgs({ 'months-ahead': '6', 'lock-timeout': '500ms', 'extend-only': true })).toEqual(
      {
        monthsAhead: 6,
        lockTimeout: '500ms',
        extendOnly: true,
      },
    );
  });

  it('refuses a lock timeout Postgres would read otherwise, naming the flag, before connecting', () => {
    expect(() =>
      parsePartitionArgs({ 'months-ahead': '3', 'lock-timeout': "1s'; DROP", 'extend-only': false }),
    ).toThrow(/^--lock-timeout: /);
    expect(() =>
      parsePartitionArgs({ 'months-ahead': '0', 'lock-timeout': '10s', 'extend-only': false }),
    ).toThrow(/^--months-ahead: /);
  });

  it('says when a scheduled run left a plain table alone', () => {
    const report = {
      layout: 'plain' as const,
      converted: false,
      movedRows: 0,
      createdPartitions: [],
      partitions: [],
    };
    expect(describePartitionRun(report, 3)).toMatch(/plain table, left as it is/);
  });
});
