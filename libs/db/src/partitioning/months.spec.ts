import { addMonths, monthOf, monthsBetween, monthStart, partitionName } from './months';

describe('calendar months of evidence partitions', () => {
  it('takes the month of an instant in UTC, not in the local time zone', () => {
    expect(monthOf(new Date('2026-12-31T23:30:00-02:00'))).toEqual({ year: 2027, month: 1 });
  });

  it('carries across years both ways', () => {
    expect(addMonths({ year: 2026, month: 11 }, 3)).toEqual({ year: 2027, month: 2 });
    expect(addMonths({ year: 2026, month: 1 }, -1)).toEqual({ year: 2025, month: 12 });
  });

  it('names a partition and its lower bound by the month it holds', () => {
    expect(partitionName('evidence', { year: 2026, month: 3 })).toBe('evidence_2026_03');
    expect(monthStart({ year: 2026, month: 3 })).toBe('2026-03-01 00:00:00+00');
  });

  it('lists every month of a range, both ends included, and none for a reversed range', () => {
    expect(monthsBetween({ year: 2026, month: 11 }, { year: 2027, month: 2 }).map((m) => m.month)).toEqual([
      11, 12, 1, 2,
    ]);
    expect(monthsBetween({ year: 2027, month: 1 }, { year: 2026, month: 12 })).toEqual([]);
  });
});
